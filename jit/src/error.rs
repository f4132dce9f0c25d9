//! Build errors: each names the word offset, the opcode, the result id with
//! its OpName if any, and the rule broken.

use std::fmt;

/// One problem found in a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Offset in 32-bit words from the start of the module of the offending
    /// instruction (0 for the header).
    pub word_offset: usize,
    /// The instruction's opcode name, e.g. "OpTypeInt", if it has one.
    pub opcode: Option<String>,
    /// The instruction's result id, if it has one.
    pub result_id: Option<u32>,
    /// The OpName of the result id, if the module names it.
    pub name: Option<String>,
    /// The rule broken, or the construct clift does not support yet, in words.
    pub rule: String,
}

impl fmt::Display for Diagnostic {
    /// `word 123: OpTypeInt %5 "name": rule`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}", self.word_offset)?;
        // The instruction's parts follow the offset after one colon; the
        // rule follows them (or the offset alone) after another.
        let mut sep = ":";
        if let Some(op) = &self.opcode {
            write!(f, "{sep} {op}")?;
            sep = "";
        }
        if let Some(id) = self.result_id {
            write!(f, "{sep} %{id}")?;
            sep = "";
        }
        if let Some(n) = &self.name {
            write!(f, "{sep} \"{n}\"")?;
        }
        write!(f, ": {}", self.rule)
    }
}

/// clBuildProgram failed: the build log is one line per diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// What is wrong, in module order.
    pub diagnostics: Vec<Diagnostic>,
}

impl BuildError {
    /// The build log text.
    pub fn log(&self) -> String {
        let mut s = String::new();
        for d in &self.diagnostics {
            s.push_str(&d.to_string());
            s.push('\n');
        }
        s
    }
}

/// The bytes given to clCreateProgramWithIL are not a SPIR-V module clift
/// takes (CL_INVALID_VALUE): wrong magic, truncated, length not a multiple of
/// 4, a word count of 0, a version above 1.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IlError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(opcode: Option<&str>, result_id: Option<u32>, name: Option<&str>) -> String {
        Diagnostic {
            word_offset: 7,
            opcode: opcode.map(String::from),
            result_id,
            name: name.map(String::from),
            rule: "the rule".into(),
        }
        .to_string()
    }

    #[test]
    fn log_line_shapes() {
        assert_eq!(
            diag(Some("OpIAdd"), Some(5), Some("x")),
            "word 7: OpIAdd %5 \"x\": the rule"
        );
        assert_eq!(diag(Some("OpReturn"), None, None), "word 7: OpReturn: the rule");
        assert_eq!(diag(None, Some(5), None), "word 7: %5: the rule");
        assert_eq!(diag(None, None, None), "word 7: the rule");
    }
}
