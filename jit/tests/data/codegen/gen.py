#!/usr/bin/env python3
"""Writes the generated regression modules of tests/codegen.rs (found by
fuzzing code generation, jit/fuzz target `codegen`) and assembles them with
spirv-as --target-env spv1.0. The modules are too repetitive to write by
hand; barrier_liveness_large.spvasm is too large to check in (300 KB), so
only its .spv is. The tests only read the .spv files.

    python3 gen.py
"""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "k"
"""


def barrier_inline_exponential(n=40):
    s = f"""; A chain of {n} functions with a barrier, each calling the previous one
; twice: inlining them all into the kernel would copy f0 2^{n - 1} times.
{HEADER}       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %vfn = OpTypeFunction %void
     %uint_2 = OpConstant %uint 2
   %uint_272 = OpConstant %uint 272
         %f0 = OpFunction %void None %vfn
        %l0 = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_272
               OpReturn
               OpFunctionEnd
"""
    for k in range(1, n):
        s += f"""         %f{k} = OpFunction %void None %vfn
        %l{k} = OpLabel
        %a{k} = OpFunctionCall %void %f{k - 1}
        %b{k} = OpFunctionCall %void %f{k - 1}
               OpReturn
               OpFunctionEnd
"""
    s += f"""     %kernel = OpFunction %void None %vfn
      %entry = OpLabel
          %r = OpFunctionCall %void %f{n - 1}
               OpReturn
               OpFunctionEnd
"""
    return s


def byval_read_only_exponential(n=7, c=60):
    s = f"""; A kernel's by-value struct is passed on through {n} levels of functions,
; each calling the next {c} times: deciding whether the kernel only reads
; through it must not walk every call path ({c}^{n}).
{HEADER}               OpDecorate %p FuncParamAttr ByVal
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
          %S = OpTypeStruct %uint %uint
      %ptr_S = OpTypePointer Function %S
        %pfn = OpTypeFunction %void %ptr_S
         %f0 = OpFunction %void None %pfn
        %q0 = OpFunctionParameter %ptr_S
        %l0 = OpLabel
        %v0 = OpLoad %S %q0
               OpReturn
               OpFunctionEnd
"""
    for k in range(1, n + 1):
        s += f"""         %f{k} = OpFunction %void None %pfn
        %q{k} = OpFunctionParameter %ptr_S
        %l{k} = OpLabel
"""
        for j in range(c):
            s += f"     %c{k}_{j} = OpFunctionCall %void %f{k - 1} %q{k}\n"
        s += "               OpReturn\n               OpFunctionEnd\n"
    s += f"""     %kernel = OpFunction %void None %pfn
          %p = OpFunctionParameter %ptr_S
      %entry = OpLabel
          %r = OpFunctionCall %void %f{n} %p
               OpReturn
               OpFunctionEnd
"""
    return s


def helpers_inline_chain(n=60):
    s = f"""; {n} functions, each calling the previous one twice (f0 adds 1): every
; helper function inlines its callees up to the budget, so compiling them
; all must not cost the number of functions times the budget.
{HEADER}       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
 %ptr_g_uint = OpTypePointer CrossWorkgroup %uint
        %ufn = OpTypeFunction %uint %uint
        %kfn = OpTypeFunction %void %ptr_g_uint
         %f0 = OpFunction %uint None %ufn
        %x0 = OpFunctionParameter %uint
        %l0 = OpLabel
        %r0 = OpIAdd %uint %x0 %uint_1
               OpReturnValue %r0
               OpFunctionEnd
"""
    for k in range(1, n):
        s += f"""         %f{k} = OpFunction %uint None %ufn
        %x{k} = OpFunctionParameter %uint
        %l{k} = OpLabel
        %a{k} = OpFunctionCall %uint %f{k - 1} %x{k}
        %b{k} = OpFunctionCall %uint %f{k - 1} %a{k}
               OpReturnValue %b{k}
               OpFunctionEnd
"""
    s += f"""     %kernel = OpFunction %void None %kfn
        %out = OpFunctionParameter %ptr_g_uint
      %entry = OpLabel
          %v = OpFunctionCall %uint %f{n - 1} %uint_1
               OpStore %out %v
               OpReturn
               OpFunctionEnd
"""
    return s


def barrier_liveness_large(v=1500, b=3000):
    s = f"""; A kernel with a barrier, {v} values defined in its entry block and used
; after a chain of {b} blocks: the barrier's liveness analysis must not keep
; a set of every live value per block.
{HEADER}       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
   %uint_272 = OpConstant %uint 272
 %ptr_g_uint = OpTypePointer CrossWorkgroup %uint
        %kfn = OpTypeFunction %void %ptr_g_uint
     %kernel = OpFunction %void None %kfn
        %out = OpFunctionParameter %ptr_g_uint
      %entry = OpLabel
         %x0 = OpLoad %uint %out
"""
    for k in range(1, v):
        s += f"         %x{k} = OpIAdd %uint %x{k - 1} %uint_1\n"
    s += "               OpControlBarrier %uint_2 %uint_2 %uint_272\n"
    s += "               OpBranch %b0\n"
    for k in range(b):
        s += f"         %b{k} = OpLabel\n               OpBranch %b{k + 1}\n"
    s += f"         %b{b} = OpLabel\n"
    acc = "x0"
    for k in range(1, v):
        s += f"         %y{k} = OpIAdd %uint %{acc} %x{k}\n"
        acc = f"y{k}"
    s += f"               OpStore %out %{acc}\n               OpReturn\n               OpFunctionEnd\n"
    return s


def many_kernels_one_bad(n=64, depth=40):
    s = f"""; {n} kernels that compile and one, "bad", that does not (the barrier
; chain of barrier_inline_exponential): compile_kernels must find the bad
; one without compiling every kernel on its own.
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
"""
    for k in range(n):
        s += f'               OpEntryPoint Kernel %k{k} "k{k}"\n'
    s += '               OpEntryPoint Kernel %bad "bad"\n'
    s += """       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
 %ptr_g_uint = OpTypePointer CrossWorkgroup %uint
        %vfn = OpTypeFunction %void
        %kfn = OpTypeFunction %void %ptr_g_uint
     %uint_2 = OpConstant %uint 2
   %uint_272 = OpConstant %uint 272
         %f0 = OpFunction %void None %vfn
        %l0 = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_272
               OpReturn
               OpFunctionEnd
"""
    for k in range(1, depth):
        s += f"""         %f{k} = OpFunction %void None %vfn
        %l{k} = OpLabel
        %a{k} = OpFunctionCall %void %f{k - 1}
        %b{k} = OpFunctionCall %void %f{k - 1}
               OpReturn
               OpFunctionEnd
"""
    for k in range(n):
        s += f"""         %k{k} = OpFunction %void None %kfn
       %out{k} = OpFunctionParameter %ptr_g_uint
      %entry{k} = OpLabel
               OpStore %out{k} %uint_2
               OpReturn
               OpFunctionEnd
"""
    s += f"""        %bad = OpFunction %void None %vfn
   %bad_entry = OpLabel
          %r = OpFunctionCall %void %f{depth - 1}
               OpReturn
               OpFunctionEnd
"""
    return s


def empty_struct_nest(n=1000):
    s = f"""; Structs of {n} members each nest three deep over an empty struct: a
; value of the outer type has no components, but flattening it must not
; visit all {n}^3 empty leaves.
{HEADER}       %void = OpTypeVoid
          %E = OpTypeStruct
"""
    s += "         %S1 = OpTypeStruct" + " %E" * n + "\n"
    s += "         %S2 = OpTypeStruct" + " %S1" * n + "\n"
    s += "         %S3 = OpTypeStruct" + " %S2" * n + "\n"
    s += f"""        %kfn = OpTypeFunction %void
     %kernel = OpFunction %void None %kfn
      %entry = OpLabel
          %u = OpUndef %S3
          %e = OpCompositeExtract %S2 %u {n - 1}
               OpReturn
               OpFunctionEnd
"""
    return s


def big_constant_stores(n=600):
    s = f"""; A 1,024-element constant array stored {n} times: each store is 1,024
; Cranelift stores, so the kernel must be refused as too large rather than
; compiled for minutes (5,000 such stores took over 1 GB).
{HEADER}       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_7 = OpConstant %uint 7
  %uint_1024 = OpConstant %uint 1024
        %arr = OpTypeArray %uint %uint_1024
    %ptr_arr = OpTypePointer CrossWorkgroup %arr
        %kfn = OpTypeFunction %void %ptr_arr
"""
    s += "          %c = OpConstantComposite %arr" + " %uint_7" * 1024 + "\n"
    s += """     %kernel = OpFunction %void None %kfn
        %out = OpFunctionParameter %ptr_arr
      %entry = OpLabel
"""
    s += "               OpStore %out %c\n" * n
    s += "               OpReturn\n               OpFunctionEnd\n"
    return s


CASES = {
    "barrier_inline_exponential": (barrier_inline_exponential, True),
    "byval_read_only_exponential": (byval_read_only_exponential, True),
    "helpers_inline_chain": (helpers_inline_chain, True),
    "barrier_liveness_large": (barrier_liveness_large, False),
    "many_kernels_one_bad": (many_kernels_one_bad, True),
    "empty_struct_nest": (empty_struct_nest, True),
    "big_constant_stores": (big_constant_stores, True),
}

for name, (gen, keep_text) in CASES.items():
    asm = os.path.join(HERE, name + ".spvasm")
    with open(asm, "w") as f:
        f.write(gen())
    subprocess.run(["spirv-as", "--target-env", "spv1.0", asm, "-o", os.path.join(HERE, name + ".spv")], check=True)
    if not keep_text:
        os.remove(asm)
