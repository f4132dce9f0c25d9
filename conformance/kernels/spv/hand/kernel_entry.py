"""What the hand-written module generators (arith_core.py, fp_core.py) share:
the start of a kernel K(a, b, o) whose work-item i loads x = a[i] and
y = b[i] (SPIR-V assembly lines; the kernel's ids start with %<name>_)."""


def kernel_entry(name, a, b, o, fn_type):
    p = f"%{name}_"
    return [f"%k_{name} = OpFunction %void None {fn_type}",
            f"{p}pa = OpFunctionParameter %p_{a}", f"{p}pb = OpFunctionParameter %p_{b}",
            f"{p}po = OpFunctionParameter %p_{o}", f"{p}entry = OpLabel",
            f"{p}g = OpLoad %v3i64 %gid", f"{p}i = OpCompositeExtract %i64 {p}g 0",
            f"{p}ai = OpInBoundsPtrAccessChain %p_{a} {p}pa {p}i", f"{p}x = OpLoad %{a} {p}ai",
            f"{p}bi = OpInBoundsPtrAccessChain %p_{b} {p}pb {p}i", f"{p}y = OpLoad %{b} {p}bi"]
