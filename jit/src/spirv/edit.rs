//! Small edits of a SPIR-V module at the level of its words, for clift's
//! OpenCL C front end (`runtime/src/compiler`), which records in the
//! modules llvm-spirv writes what only clang knows (kernel argument
//! information, kernel attributes, as OpStrings the front end of
//! [`crate::build`] reads back) and checks what llvm-spirv wrote.
//!
//! [`Words`] reads the entry points, capabilities and execution modes,
//! drops the names of function parameters and adds OpStrings. The module is
//! not decoded into a [`super::Module`] (the build does that afterwards,
//! validating everything): every instruction an edit does not add or drop
//! is copied word for word.

use spirv::Op;

pub use spirv::{Capability, ExecutionMode};

/// A module's words (in host order), to read and edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    words: Vec<u32>,
}

/// One instruction: where it starts, its opcode (`None` for one the grammar
/// does not know) and its words (the first holds the word count and the
/// opcode; the operands follow).
struct Inst<'a> {
    at: usize,
    op: Option<Op>,
    words: &'a [u32],
}

/// The words of a literal string operand: its UTF-8 bytes and a NUL, zero
/// padded to a whole word, each word holding four bytes from its lowest.
pub fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The literal string that starts `words` (up to its NUL).
fn string_of(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Words {
    /// The words of `module`, if it is a SPIR-V module clift takes
    /// ([`crate::words`]: either byte order, a whole instruction stream).
    pub fn new(module: &[u8]) -> Option<Words> {
        crate::words(module).ok().map(|words| Words { words })
    }

    /// The module's bytes, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The instructions past the header. (The stream was checked by
    /// [`crate::words`] and edits keep it whole, so every count is nonzero
    /// and ends within the module.)
    fn instructions(&self) -> impl Iterator<Item = Inst<'_>> + '_ {
        let mut at = 5;
        std::iter::from_fn(move || {
            let first = *self.words.get(at)?;
            let count = (first >> 16) as usize;
            let words = self.words.get(at..at + count).filter(|_| count > 0)?;
            let inst = Inst {
                at,
                op: Op::from_u32(first & 0xffff),
                words,
            };
            at += count;
            Some(inst)
        })
    }

    /// Whether the module declares capability `cap` (OpCapability).
    pub fn declares_capability(&self, cap: Capability) -> bool {
        self.instructions()
            .any(|i| i.op == Some(Op::Capability) && i.words.get(1) == Some(&(cap as u32)))
    }

    /// Whether any entry point has one of `modes` (OpExecutionMode or
    /// OpExecutionModeId).
    pub fn has_execution_mode(&self, modes: &[ExecutionMode]) -> bool {
        self.instructions().any(|i| {
            matches!(i.op, Some(Op::ExecutionMode | Op::ExecutionModeId))
                && i.words
                    .get(2)
                    .is_some_and(|&m| modes.iter().any(|&mode| mode as u32 == m))
        })
    }

    /// The names of the entry points, in the module's order.
    pub fn entry_point_names(&self) -> Vec<String> {
        // OpEntryPoint: execution model, function, name, interface.
        self.instructions()
            .filter(|i| i.op == Some(Op::EntryPoint) && i.words.len() >= 4)
            .map(|i| string_of(&i.words[3..]))
            .collect()
    }

    /// Whether the module may hold one of llvm-spirv 15's translations of
    /// a conversion between `i1` and floating point: `sitofp i1` (true is
    /// -1.0) becomes OpSelect of 1 and 0 then OpConvertSToF (true is +1.0,
    /// a wrong answer), and `fptosi`/`fptoui` to `i1` an OpConvertFToS or
    /// OpConvertFToU with a boolean result, and a bitcast between `<N x i1>`
    /// and `iN` an OpBitcast of a boolean vector (invalid modules). True
    /// for every OpConvertSToF of an OpSelect's result, every float to
    /// integer conversion to a boolean type and every OpBitcast to or from
    /// one; the IR tells which of them are those translations.
    pub fn may_mistranslate_bool_conversions(&self) -> bool {
        use std::collections::HashSet;
        let mut bools = HashSet::new();
        // Values of boolean (vector) types.
        let mut bool_values = HashSet::new();
        let mut selects = HashSet::new();
        for i in self.instructions() {
            let declares_type = matches!(i.op, Some(Op::TypeBool | Op::TypeVector | Op::TypePointer));
            if let [_, ty, id, ..] = i.words {
                if !declares_type && bools.contains(ty) {
                    bool_values.insert(*id);
                }
            }
            match (i.op, i.words) {
                // OpTypeBool: result; OpTypeVector: result, component type, count.
                (Some(Op::TypeBool), [_, id]) => {
                    bools.insert(*id);
                }
                (Some(Op::TypeVector), [_, id, component, _]) if bools.contains(component) => {
                    bools.insert(*id);
                }
                // OpSelect: result type, result, condition, then, else.
                (Some(Op::Select), [_, _, id, ..]) => {
                    selects.insert(*id);
                }
                // Conversions: result type, result, operand.
                (Some(Op::ConvertSToF), [_, _, _, operand]) if selects.contains(operand) => return true,
                (Some(Op::ConvertFToS | Op::ConvertFToU), [_, ty, ..]) if bools.contains(ty) => return true,
                // A bitcast to or from a boolean vector (llvm-spirv 15's
                // translation of `bitcast <8 x i1> %c to i8`: not allowed).
                (Some(Op::Bitcast), [_, ty, _, operand]) if bools.contains(ty) || bool_values.contains(operand) => {
                    return true
                }
                _ => {}
            }
        }
        false
    }

    /// Whether a clustered non-uniform reduction takes a cluster size that
    /// is not an OpConstant, which SPIR-V does not allow: clang -O2 merges
    /// the arms of a `switch` that call `sub_group_clustered_reduce_*`
    /// with different constant sizes into one call taking a phi of them,
    /// or the switch's own value.
    pub fn has_varying_cluster_size(&self) -> bool {
        use std::collections::HashSet;
        let mut constants = HashSet::new();
        for i in self.instructions() {
            match (i.op, i.words) {
                (Some(Op::Constant), [_, _, id, ..]) => {
                    constants.insert(*id);
                }
                // Result type, result, scope, operation, value, cluster size.
                (Some(op), [_, _, _, _, operation, _, size])
                    if matches!(op, super::opsets::non_uniform_arithmetic!())
                        && *operation == spirv::GroupOperation::ClusteredReduce as u32
                        && !constants.contains(size) =>
                {
                    return true
                }
                _ => {}
            }
        }
        false
    }

    /// Drops the OpNames of function parameters (OpenCL C kernel argument
    /// names are reported only with -cl-kernel-arg-info).
    pub fn strip_parameter_names(&mut self) {
        // OpFunctionParameter: result type, result id.
        let params: std::collections::HashSet<u32> = self
            .instructions()
            .filter(|i| i.op == Some(Op::FunctionParameter) && i.words.len() >= 3)
            .map(|i| i.words[2])
            .collect();
        let mut out = self.words[..5].to_vec();
        for i in self.instructions() {
            // OpName: target, name.
            let param_name = i.op == Some(Op::Name) && i.words.len() >= 2 && params.contains(&i.words[1]);
            if !param_name {
                out.extend_from_slice(i.words);
            }
        }
        self.words = out;
    }

    /// Adds an OpString per string, each with a new id, at the start of the
    /// debug section (after the capabilities, extensions, imports, memory
    /// model, entry points and execution modes). A string too long for one
    /// instruction is left out. False, with the module unchanged, when the
    /// id bound would overflow.
    pub fn insert_strings(&mut self, strings: &[String]) -> bool {
        let at = self
            .instructions()
            .find(|i| !matches!(i.op, Some(super::opsets::module_header!())))
            .map_or(self.words.len(), |i| i.at);
        let mut bound = self.words[3];
        let mut new = Vec::new();
        for s in strings {
            let text = string_words(s);
            let count = 2 + text.len();
            if count > 0xffff {
                continue;
            }
            let Some(next) = bound.checked_add(1) else {
                return false;
            };
            new.push(((count as u32) << 16) | Op::String as u32);
            new.push(bound);
            new.extend(text);
            bound = next;
        }
        self.words[3] = bound;
        self.words.splice(at..at, new);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of `insts` with id bound `bound`, as bytes.
    fn module(bound: u32, insts: &[(Op, Vec<u32>)]) -> Vec<u8> {
        let mut w = vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, bound, 0];
        for (op, operands) in insts {
            w.push(((operands.len() as u32 + 1) << 16) | *op as u32);
            w.extend(operands);
        }
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn memory_model() -> (Op, Vec<u32>) {
        (
            Op::MemoryModel,
            vec![
                spirv::AddressingModel::Physical64 as u32,
                spirv::MemoryModel::OpenCL as u32,
            ],
        )
    }

    #[test]
    fn strings_go_before_the_debug_section() {
        let m = module(
            2,
            &[
                (Op::Capability, vec![Capability::Kernel as u32]),
                memory_model(),
                (Op::Name, [vec![1], string_words("a")].concat()),
            ],
        );
        let mut w = Words::new(&m).unwrap();
        assert!(w.insert_strings(&["abc".into()]));
        let expect = module(
            3,
            &[
                (Op::Capability, vec![Capability::Kernel as u32]),
                memory_model(),
                (Op::String, [vec![2], string_words("abc")].concat()),
                (Op::Name, [vec![1], string_words("a")].concat()),
            ],
        );
        assert_eq!(w.to_bytes(), expect, "bound raised, string first in the debug section");
        // An id bound that cannot grow leaves the module as it was.
        let mut full = Words::new(&module(u32::MAX, &[memory_model()])).unwrap();
        let before = full.clone();
        assert!(!full.insert_strings(&["x".into()]));
        assert_eq!(full, before);
    }

    #[test]
    fn capabilities_are_found() {
        let m = module(
            1,
            &[
                (Op::Capability, vec![Capability::Kernel as u32]),
                (Op::Capability, vec![Capability::Shader as u32]),
                memory_model(),
            ],
        );
        let w = Words::new(&m).unwrap();
        assert!(w.declares_capability(Capability::Kernel) && w.declares_capability(Capability::Shader));
        assert!(!w.declares_capability(Capability::Addresses));
        // The header alone declares nothing; less is not a module.
        assert!(Words::new(&m[..20]).is_some_and(|w| !w.declares_capability(Capability::Kernel)));
        assert!(Words::new(&m[..19]).is_none());
    }

    #[test]
    fn entry_points_and_their_modes_are_read() {
        let kernel = spirv::ExecutionModel::Kernel as u32;
        let m = module(
            10,
            &[
                memory_model(),
                (Op::EntryPoint, [vec![kernel, 1], string_words("a")].concat()),
                (
                    Op::EntryPoint,
                    [vec![kernel, 2], string_words("bcde"), vec![7]].concat(),
                ),
                (Op::ExecutionMode, vec![1, ExecutionMode::LocalSize as u32, 1, 2, 3]),
            ],
        );
        let w = Words::new(&m).unwrap();
        assert_eq!(w.entry_point_names(), ["a", "bcde"]);
        assert!(w.has_execution_mode(&[ExecutionMode::VecTypeHint, ExecutionMode::LocalSize]));
        assert!(!w.has_execution_mode(&[ExecutionMode::LocalSizeHint]));
    }

    #[test]
    fn only_parameter_names_are_stripped() {
        let m = module(
            6,
            &[
                memory_model(),
                (Op::Name, [vec![4], string_words("f")].concat()),
                (Op::Name, [vec![5], string_words("x")].concat()),
                (Op::Function, vec![2, 4, 0, 3]),
                (Op::FunctionParameter, vec![1, 5]),
                (Op::FunctionEnd, vec![]),
            ],
        );
        let mut w = Words::new(&m).unwrap();
        w.strip_parameter_names();
        let expect = module(
            6,
            &[
                memory_model(),
                (Op::Name, [vec![4], string_words("f")].concat()),
                (Op::Function, vec![2, 4, 0, 3]),
                (Op::FunctionParameter, vec![1, 5]),
                (Op::FunctionEnd, vec![]),
            ],
        );
        assert_eq!(w.to_bytes(), expect);
    }

    #[test]
    fn cluster_sizes_that_are_not_constants_are_found() {
        // %3 int, %4 = 4, %5 a parameter; OpGroupNonUniformIAdd of %6 with
        // scope %7 and operation 3 (ClusteredReduce) or 0 (Reduce).
        let with = |operation: u32, size: u32| {
            let insts = [
                memory_model(),
                (Op::TypeInt, vec![3, 32, 0]),
                (Op::Constant, vec![3, 4, 4]),
                (Op::GroupNonUniformIAdd, vec![3, 8, 7, operation, 6, size]),
            ];
            Words::new(&module(20, &insts)).unwrap().has_varying_cluster_size()
        };
        assert!(with(3, 5), "a parameter as the cluster size");
        assert!(!with(3, 4), "a constant cluster size");
        let reduce = [
            memory_model(),
            (Op::TypeInt, vec![3, 32, 0]),
            (Op::GroupNonUniformIAdd, vec![3, 8, 7, 0, 6]),
        ];
        assert!(!Words::new(&module(20, &reduce)).unwrap().has_varying_cluster_size());
    }

    #[test]
    fn conversions_llvm_spirv_may_have_mistranslated_are_found() {
        // %1 bool, %2 bool vector, %3 int, %4 float; %5 = select, %6 a
        // parameter.
        let types = [
            (Op::TypeBool, vec![1]),
            (Op::TypeVector, vec![2, 1, 4]),
            (Op::TypeInt, vec![3, 32, 0]),
            (Op::TypeFloat, vec![4, 32]),
        ];
        let with = |inst: (Op, Vec<u32>)| {
            let mut insts = vec![memory_model()];
            insts.extend(types.iter().cloned());
            insts.push((Op::Select, vec![3, 5, 9, 10, 11]));
            insts.push(inst);
            Words::new(&module(20, &insts))
                .unwrap()
                .may_mistranslate_bool_conversions()
        };
        assert!(with((Op::ConvertSToF, vec![4, 7, 5])), "signed conversion of a select");
        assert!(
            !with((Op::ConvertUToF, vec![4, 7, 5])),
            "unsigned conversions are right"
        );
        assert!(!with((Op::ConvertSToF, vec![4, 7, 6])), "of something else");
        assert!(with((Op::ConvertFToS, vec![1, 7, 6])), "to a boolean");
        assert!(with((Op::ConvertFToU, vec![2, 7, 6])), "to a boolean vector");
        assert!(!with((Op::ConvertFToS, vec![3, 7, 6])), "to an integer");
        // %8: a boolean vector value (an OpINotEqual's result).
        let bitcast_of = |operand: u32| {
            let mut insts = vec![memory_model()];
            insts.extend(types.iter().cloned());
            insts.push((Op::INotEqual, vec![2, 8, 9, 10]));
            insts.push((Op::Bitcast, vec![3, 11, operand]));
            Words::new(&module(20, &insts))
                .unwrap()
                .may_mistranslate_bool_conversions()
        };
        assert!(bitcast_of(8), "a bitcast of a boolean vector");
        assert!(!bitcast_of(6), "a bitcast of something else");
    }
}
