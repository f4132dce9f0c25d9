#!/usr/bin/env python3
"""Writes the test modules under valid/ (and assembles them) and the
modules derived from base.spvasm in the one corpus of invalid modules,
conformance/corpus/invalid (which its make.py assembles).

Each invalid NAME.spvasm written here is base.spvasm with a few lines changed
so that it breaks one rule; its header says '; rule: NAME' and
'; expect: TEXT', a piece of the rule text clift must report (both
jit/tests/front_end.rs and conformance/tests/corpus.rs check it). Needs
spirv-as (SPIRV-Tools); the tests only read the checked-in .spv files.

    python3 gen.py
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The one corpus of invalid modules, shared with the end-to-end tests.
INVALID_DIR = os.path.join(HERE, "..", "..", "..", "conformance", "corpus", "invalid")
BASE = open(os.path.join(HERE, "base.spvasm")).read()

TYPES = "      %float = OpTypeFloat 32\n"
CONSTS = "   %uint_272 = OpConstant %uint 272\n"
KBODY = "        %old = OpAtomicIAdd %uint %ptr %uint_2 %uint_0 %uint_1\n"
CAPS = "               OpCapability Int64\n"

# A kernel with a read_only pipe parameter %p, and the Generic pointer %gp
# to its output (for the pipe rules).
PIPE_EDITS = [
    (CAPS, CAPS + "               OpCapability Pipes\n               OpCapability GenericPointer\n"),
    (TYPES, TYPES + "    %pipe_ro = OpTypePipe ReadOnly\n  %ptr_n_uint = OpTypePointer Generic %uint\n"
            "  %reserve_id = OpTypeReserveId\n"),
    ("%kfn = OpTypeFunction %void %ptr_g_uint %uint", "%kfn = OpTypeFunction %void %ptr_g_uint %uint %pipe_ro"),
    ("          %n = OpFunctionParameter %uint\n", "          %n = OpFunctionParameter %uint\n          %p = OpFunctionParameter %pipe_ro\n"),
    (CONSTS, CONSTS + "     %uint_4 = OpConstant %uint 4\n"),
]
PIPE_GP = "         %gp = OpPtrCastToGeneric %ptr_n_uint %ptr\n"

# The capabilities of the six cl_khr_subgroup_* non-uniform extensions, a
# Subgroup scope constant %uint_3, %uint_4 and %float_1 (SPIR-V 1.3 modules).
NU_EDITS = [
    (CAPS, CAPS + "".join(f"               OpCapability {c}\n" for c in [
        "GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformBallot", "GroupNonUniformArithmetic",
        "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative", "GroupNonUniformClustered"])),
    (CONSTS, CONSTS + "     %uint_3 = OpConstant %uint 3\n     %uint_4 = OpConstant %uint 4\n"
             "    %float_1 = OpConstant %float 1\n"),
]

# A kernel that can enqueue: a queue %q, an ndrange %nd, the invoke
# function %invoke (no local parameters), null event and literal pointers
# (for the device-side enqueue rules).
ENQ_EDITS = [
    (CAPS, CAPS + "               OpCapability DeviceEnqueue\n               OpCapability GenericPointer\n"
                  "               OpCapability Int8\n"),
    (TYPES, TYPES + "      %uchar = OpTypeInt 8 0\n      %queue = OpTypeQueue\n      %devev = OpTypeDeviceEvent\n"
                    "%ptr_n_uchar = OpTypePointer Generic %uchar\n%ptr_f_devev = OpTypePointer Function %devev\n"
                    "        %ifn = OpTypeFunction %void %ptr_n_uchar\n"),
    (CONSTS, CONSTS + "     %uint_3 = OpConstant %uint 3\n    %ulong_0 = OpConstant %ulong 0\n"
                      "    %ulong_1 = OpConstant %ulong 1\n       %arr3 = OpTypeArray %ulong %uint_3\n"
                      "       %arr2 = OpTypeArray %ulong %uint_2\n     %arr2_0 = OpConstantNull %arr2\n"
                      "    %ndrange = OpTypeStruct %uint %arr3 %arr3 %arr3\n"
                      "     %evnull = OpConstantNull %ptr_f_devev\n       %lit0 = OpConstantNull %ptr_n_uchar\n"),
    ("     %kernel = OpFunction %void None %kfn\n",
     "     %invoke = OpFunction %void None %ifn\n        %lit = OpFunctionParameter %ptr_n_uchar\n"
     "     %ientry = OpLabel\n               OpReturn\n               OpFunctionEnd\n"
     "     %kernel = OpFunction %void None %kfn\n"),
]
ENQ_BODY = "          %q = OpGetDefaultQueue %queue\n         %nd = OpBuildNDRange %ndrange %ulong_1 %ulong_0 %ulong_0\n"

# name: (expected rule text, [(old, new), ...])
INVALID = {
    # --- environment -------------------------------------------------------
    "exec_model_glcompute": ("OpenCL takes only Kernel entry points",
        [('OpEntryPoint Kernel %kernel "k" %gid', 'OpEntryPoint GLCompute %kernel "k" %gid')]),
    "kernel_returns_value": ("must return void",
        [("%kfn = OpTypeFunction %void %ptr_g_uint %uint", "%kfn = OpTypeFunction %uint %ptr_g_uint %uint"),
         ("%kernel = OpFunction %void None %kfn", "%kernel = OpFunction %uint None %kfn"),
         ("               OpReturn\n", "               OpReturnValue %uint_0\n")]),
    "physical32": ("this device has 64 address bits",
        [("OpMemoryModel Physical64 OpenCL", "OpMemoryModel Physical32 OpenCL")]),
    "logical_addressing": ("addressing model is not allowed in OpenCL",
        [("OpMemoryModel Physical64 OpenCL", "OpMemoryModel Logical OpenCL")]),
    "glsl_memory_model": ("memory model is not allowed",
        [("OpMemoryModel Physical64 OpenCL", "OpMemoryModel Physical64 GLSL450")]),
    "no_addresses_capability": ("Physical64 addressing model needs the Addresses capability",
        [("               OpCapability Addresses\n", "")]),
    "cap_image_mipmap": ("capability ImageMipmap is not supported: mipmapped images (cl_khr_mipmap_image) are not supported",
        [(CAPS, CAPS + "               OpCapability ImageMipmap\n")]),
    "cap_atomic_storage": ("capability AtomicStorage is not supported: the device does not advertise it",
        [(CAPS, CAPS + "               OpCapability AtomicStorage\n")]),
    "cap_shader": ("capability Shader is not supported",
        [(CAPS, CAPS + "               OpCapability Shader\n")]),
    "extension_unknown": ('extension "SPV_KHR_not_a_thing" is not supported by clift',
        [(CAPS, CAPS + '               OpExtension "SPV_KHR_not_a_thing"\n')]),
    "ext_inst_set_glsl": ('extended instruction set "GLSL.std.450" is not supported: OpenCL takes only "OpenCL.std"',
        [('%std = OpExtInstImport "OpenCL.std"', '%std = OpExtInstImport "GLSL.std.450"')]),
    "instruction_needs_capability": ("OpGroupIAdd needs one of the capabilities",
        [(KBODY, KBODY + "         %gs = OpGroupIAdd %uint %uint_2 Reduce %old\n")]),
    "int64_without_capability": ("64-bit integers need the Int64 capability",
        [(CAPS, "")]),
    "int_signed": ("OpTypeInt must have Signedness 0",
        [(TYPES, TYPES + "        %int = OpTypeInt 32 1\n")]),
    "int_width_24": ("OpTypeInt width 24 is not supported",
        [(TYPES, TYPES + "        %i24 = OpTypeInt 24 0\n")]),
    "double_type": ("64-bit floats (double) need the Float64 capability",
        [(TYPES, TYPES + "     %double = OpTypeFloat 64\n")]),
    "half_type": ("16-bit floats need the Float16Buffer or Float16 capability",
        [(TYPES, TYPES + "       %half = OpTypeFloat 16\n")]),
    "vector_5": ("vectors of 5 components are not supported",
        [(TYPES, TYPES + "    %v5float = OpTypeVector %float 5\n")]),
    "vector16_without_capability": ("16-component vectors need the Vector16 capability",
        [(TYPES, TYPES + "  %v16float = OpTypeVector %float 16\n")]),
    "storage_output": ("storage class Output is not allowed in OpenCL",
        [(TYPES, TYPES + "  %ptr_out = OpTypePointer Output %float\n")]),
    "sampler_type": ("sampler types need the ImageBasic capability",
        [(TYPES, TYPES + "    %sampler = OpTypeSampler\n")]),
    "param_generic_pointer": ("kernel pointer parameters must be CrossWorkgroup (__global), Workgroup (__local) or UniformConstant (__constant)",
        [(CAPS, CAPS + "               OpCapability GenericPointer\n"),
         (" %ptr_g_uint = OpTypePointer CrossWorkgroup %uint", " %ptr_g_uint = OpTypePointer Generic %uint")]),
    "param_private_pointer": ("without FuncParamAttr ByVal",
        [("%kfn = OpTypeFunction %void %ptr_g_uint %uint", "%kfn = OpTypeFunction %void %ptr_f_uint %uint"),
         ("%out = OpFunctionParameter %ptr_g_uint", "%out = OpFunctionParameter %ptr_f_uint"),
         ("%ptr = OpInBoundsPtrAccessChain %ptr_g_uint %out %id0", "%ptr = OpInBoundsPtrAccessChain %ptr_f_uint %out %id0")]),
    "builtin_wrong_type": ("built-in variable GlobalInvocationId must have type a vector of 3 64-bit integers",
        [("%ptr_in_v3ulong = OpTypePointer Input %v3ulong", "%v3uint = OpTypeVector %uint 3\n%ptr_in_v3ulong = OpTypePointer Input %v3uint"),
         ("%ids = OpLoad %v3ulong %gid Aligned 32", "%ids = OpLoad %v3uint %gid Aligned 32"),
         ("%id0 = OpCompositeExtract %ulong %ids 0", "%id0u = OpCompositeExtract %uint %ids 0\n        %id0 = OpUConvert %ulong %id0u")]),
    "builtin_not_opencl": ("BuiltIn Position is not an OpenCL built-in variable",
        [("OpDecorate %gid BuiltIn GlobalInvocationId", "OpDecorate %gid BuiltIn Position")]),
    "input_not_builtin": ("a module-scope Input variable must be a built-in variable",
        [("               OpDecorate %gid BuiltIn GlobalInvocationId\n", "")]),
    "workgroup_initializer": ("a Workgroup (__local) variable cannot have an initializer",
        [(TYPES, TYPES + "   %ptr_w_uint = OpTypePointer Workgroup %uint\n"),
         ("        %gid = OpVariable %ptr_in_v3ulong Input\n", "        %gid = OpVariable %ptr_in_v3ulong Input\n      %lvar = OpVariable %ptr_w_uint Workgroup %uint_0\n")]),
    "decoration_unsupported": ("decoration Location is not supported by clift",
        [("OpDecorate %gid Constant", "OpDecorate %gid Constant\n               OpDecorate %gid Location 0")]),
    "duplicate_spec_id": ("SpecId 3 is used by more than one specialization constant",
        [("OpDecorate %gid Constant", "OpDecorate %gid Constant\n               OpDecorate %sc1 SpecId 3\n               OpDecorate %sc2 SpecId 3"),
         (CONSTS, CONSTS + "        %sc1 = OpSpecConstant %uint 1\n        %sc2 = OpSpecConstant %uint 2\n")]),
    "exec_mode_shader": ("execution mode OriginUpperLeft is not valid for OpenCL kernels",
        [("OpExecutionMode %kernel LocalSize 8 1 1", "OpExecutionMode %kernel OriginUpperLeft")]),
    "local_size_zero": ("execution mode LocalSize must be at least 1 in every dimension",
        [("OpExecutionMode %kernel LocalSize 8 1 1", "OpExecutionMode %kernel LocalSize 8 0 1")]),
    "opcode_unsupported": ("OpDPdx is not supported by clift",
        [(KBODY, KBODY + "         %dd = OpDPdx %float %float_1\n"),
         (CONSTS, CONSTS + "    %float_1 = OpConstant %float 1\n")]),
    "opcode_needs_1_1": ("OpSizeOf needs SPIR-V 1.1",
        [(KBODY, KBODY + "         %sz = OpSizeOf %uint %ptr\n")]),
    "bodyless_call": ("unresolved symbol \"ext\": the function is imported",
        [("               OpDecorate %gid Constant\n", "               OpDecorate %gid Constant\n               OpDecorate %ext LinkageAttributes \"ext\" Import\n"),
         ("     %kernel = OpFunction %void None %kfn\n", "        %ext = OpFunction %uint None %hfn\n         %ea = OpFunctionParameter %uint\n         %eb = OpFunctionParameter %uint\n               OpFunctionEnd\n     %kernel = OpFunction %void None %kfn\n"),
         ("%next = OpFunctionCall %uint %helper %sum %i", "%next = OpFunctionCall %uint %ext %sum %i")]),
    "recursion_self": ("recursion is not supported: the static call graph has the cycle %",
        [("         %hr = OpIAdd %uint %ha %hb\n", "         %hx = OpFunctionCall %uint %helper %ha %hb\n         %hr = OpIAdd %uint %hx %hb\n")]),
    # --- scopes, semantics, atomics ----------------------------------------
    "scope_not_constant": ("the execution scope %",
        [("OpControlBarrier %uint_2 %uint_2 %uint_272", "OpControlBarrier %n %uint_2 %uint_272")]),
    "exec_scope_device": ("the execution scope must be Workgroup or Subgroup in OpenCL (it is Device)",
        [("OpControlBarrier %uint_2 %uint_2 %uint_272", "OpControlBarrier %uint_1 %uint_2 %uint_272")]),
    "atomic_scope_invocation": ("the memory scope of an atomic must be CrossDevice, Device, Workgroup or Subgroup in OpenCL (it is Invocation)",
        [(CONSTS, CONSTS + "     %uint_4 = OpConstant %uint 4\n"),
         ("%old = OpAtomicIAdd %uint %ptr %uint_2 %uint_0 %uint_1", "%old = OpAtomicIAdd %uint %ptr %uint_4 %uint_0 %uint_1")]),
    "semantics_uniform_memory": ("that OpenCL does not allow",
        [(CONSTS, CONSTS + "    %uint_64 = OpConstant %uint 64\n"),
         ("OpControlBarrier %uint_2 %uint_2 %uint_272", "OpControlBarrier %uint_2 %uint_2 %uint_64")]),
    "semantics_not_constant": ("the memory semantics %",
        [("OpControlBarrier %uint_2 %uint_2 %uint_272", "OpControlBarrier %uint_2 %uint_2 %n")]),
    "atomic_16bit": ("atomics take 32-bit integers, and 64-bit ones with Int64Atomics (this one is 16-bit)",
        [(CAPS, CAPS + "               OpCapability Int16\n"),
         (TYPES, TYPES + "     %ushort = OpTypeInt 16 0\n%ptr_g_ushort = OpTypePointer CrossWorkgroup %ushort\n"),
         (CONSTS, CONSTS + "   %ushort_1 = OpConstant %ushort 1\n"),
         (KBODY, KBODY + "         %p16 = OpBitcast %ptr_g_ushort %ptr\n        %o16 = OpAtomicIAdd %ushort %p16 %uint_2 %uint_0 %ushort_1\n")]),
    "atomic_uniform_constant": ("the atomic's pointer must point to Function, Workgroup, CrossWorkgroup or Generic storage",
        [(TYPES, TYPES + "  %ptr_c_uint = OpTypePointer UniformConstant %uint\n"),
         ("        %gid = OpVariable %ptr_in_v3ulong Input\n", "        %gid = OpVariable %ptr_in_v3ulong Input\n       %cvar = OpVariable %ptr_c_uint UniformConstant %uint_0\n"),
         (KBODY, KBODY + "         %oc = OpAtomicIAdd %uint %cvar %uint_2 %uint_0 %uint_1\n")]),
    "async_copy_subgroup": ("the execution scope must be Workgroup for OpGroupAsyncCopy",
        [(TYPES, TYPES + "      %event = OpTypeEvent\n"),
         (CONSTS, CONSTS + "     %uint_3 = OpConstant %uint 3\n      %ev0 = OpConstantNull %event\n"),
         (KBODY, KBODY + "         %ev = OpGroupAsyncCopy %event %uint_3 %ptr %ptr %ulong_1 %ulong_1 %ev0\n"),
         (CONSTS, CONSTS + "    %ulong_1 = OpConstant %ulong 1\n")]),
    # --- pipes: a read_only pipe parameter %p, a Generic pointer %gp -----------
    "pipe_packet_size_not_constant": ("the packet size (operand 2) must be a 32-bit integer constant",
        PIPE_EDITS + [(KBODY, KBODY + PIPE_GP + "         %rp = OpReadPipe %uint %p %gp %n %uint_4 ;@\n")]),
    "pipe_access_wrong": ("the pipe (operand 0) must be WriteOnly, not ReadOnly",
        PIPE_EDITS + [(KBODY, KBODY + PIPE_GP + "         %rp = OpWritePipe %uint %p %gp %uint_4 %uint_4 ;@\n")]),
    "pipe_pointer_not_generic": ("operand 1 must be a Generic pointer",
        PIPE_EDITS + [(KBODY, KBODY + "         %rp = OpReadPipe %uint %p %ptr %uint_4 %uint_4 ;@\n")]),
    "pipe_reserve_id_not_reserve_id": ("operand 1 must be a reserve id",
        PIPE_EDITS + [(KBODY, KBODY + "               OpCommitReadPipe %p %n %uint_4 %uint_4 ;@\n")]),
    "pipe_alignment_not_dividing": ("the packet alignment 3 must be from 1 to the packet size 4 and divide it",
        PIPE_EDITS + [(CONSTS, CONSTS + "     %uint_3 = OpConstant %uint 3\n"),
                      (KBODY, KBODY + PIPE_GP + "         %rp = OpReadPipe %uint %p %gp %uint_4 %uint_3 ;@\n")]),
    # --- device-side enqueue: a queue %q, an ndrange %nd, an invoke function --
    "enqueue_event_not_a_device_event": ("operand 0 must be a device event",
        ENQ_EDITS + [(KBODY, KBODY + ENQ_BODY + "               OpRetainEvent %n ;@\n")]),
    "enqueue_local_sizes_without_parameters": ("1 local sizes for an invoke function with 0 Workgroup pointer parameters",
        ENQ_EDITS + [(KBODY, KBODY + ENQ_BODY +
            "         %en = OpEnqueueKernel %uint %q %uint_0 %nd %uint_0 %evnull %evnull %invoke %lit0 %uint_1 %uint_1 %uint_1 ;@\n")]),
    "build_ndrange_sizes_differ": ("operand 1 must be a 64-bit integer or an array of 2 or 3 of them, the same for the sizes and the offset",
        ENQ_EDITS + [(KBODY, KBODY + ENQ_BODY + "        %nd2 = OpBuildNDRange %ndrange %ulong_1 %arr2_0 %ulong_0 ;@\n")]),
    # --- non-uniform sub-group instructions (SPIR-V 1.3) ----------------------
    "non_uniform_scope_workgroup": ("the execution scope must be Subgroup for OpGroupNonUniformIAdd",
        NU_EDITS + [(KBODY, KBODY + "         %nu = OpGroupNonUniformIAdd %uint %uint_2 Reduce %n ;@\n")]),
    "ballot_result_not_uint4": ("must be a vector of four 32-bit integers (uint4)",
        NU_EDITS + [(KBODY, KBODY + "         %nu = OpGroupNonUniformBallot %uint %uint_3 %zero ;@\n")]),
    "non_uniform_value_not_result_type": ("(32-bit float), expected",
        NU_EDITS + [(KBODY, KBODY + "         %nu = OpGroupNonUniformShuffle %uint %uint_3 %float_1 %n ;@\n")]),
    "cluster_size_not_power_of_two": ("the cluster size 3 must be a power of 2",
        NU_EDITS + [(KBODY, KBODY + "         %nu = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %n %uint_3 ;@\n")]),
    "cluster_size_not_constant": ("must be an integer constant",
        NU_EDITS + [(KBODY, KBODY + "         %nu = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %n %n ;@\n")]),
    "clustered_without_capability": ("the ClusteredReduce operation needs the GroupNonUniformClustered capability",
        [(e[0], e[1].replace("               OpCapability GroupNonUniformClustered\n", "")) for e in NU_EDITS]
        + [(KBODY, KBODY + "         %nu = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %n %uint_4 ;@\n")]),
    "sub_group_mask_not_uint4": ("built-in variable SubgroupEqMask must have type a vector of 4 32-bit integers (uint4)",
        NU_EDITS + [('OpEntryPoint Kernel %kernel "k" %gid', 'OpEntryPoint Kernel %kernel "k" %gid %eq'),
                    ("               OpDecorate %gid Constant\n",
                     "               OpDecorate %gid Constant\n               OpDecorate %eq BuiltIn SubgroupEqMask\n"),
                    ("        %gid = OpVariable %ptr_in_v3ulong Input\n",
                     "        %gid = OpVariable %ptr_in_v3ulong Input\n %ptr_in_uint = OpTypePointer Input %uint\n"
                     "         %eq = OpVariable %ptr_in_uint Input ;@\n")]),
    # --- structure -----------------------------------------------------------
    "layout_order": ("is out of the module's layout order",
        [("               OpMemoryModel Physical64 OpenCL\n", "               OpMemoryModel Physical64 OpenCL\n               OpCapability Int8\n")]),
    "block_not_terminated": ("is not terminated",
        [("               OpBranch %body\n", "")]),
    "outside_block": ("is outside a block",
        [("               OpReturnValue %hr\n", "               OpReturnValue %hr\n         %hz = OpIAdd %uint %ha %hb\n")]),
    "no_function_end": ("has no OpFunctionEnd",
        [("               OpBranchConditional %more %body %after\n               OpFunctionEnd\n", "               OpBranchConditional %more %body %after\n")]),
    "result_type_not_type": ("result type %",
        [("%last = OpIAdd %uint %next %uint_1", "%last = OpIAdd %uint_1 %next %uint_1")]),
    "iadd_operand_type": ("operand 1 (%",
        [("%last = OpIAdd %uint %next %uint_1", "%last = OpIAdd %uint %next %id0")]),
    "fadd_on_ints": ("must be a float scalar or vector",
        [("%inc = OpIAdd %uint %i %uint_1", "%inc = OpFAdd %uint %i %uint_1")]),
    "load_wrong_type": ("differs from the pointee type",
        [("%ids = OpLoad %v3ulong %gid Aligned 32", "%ids0 = OpLoad %ulong %gid Aligned 8\n        %ids = OpLoad %v3ulong %gid Aligned 32")]),
    "store_wrong_type": ("operand 1 (%",
        [("OpStore %ptr %result Aligned 4", "OpStore %ptr %id0 Aligned 4")]),
    "branch_condition_not_bool": ("the branch condition must be a bool scalar",
        [("OpBranchConditional %zero %exit %pre", "OpBranchConditional %n %exit %pre")]),
    "call_argument_type": ("argument 1 (%",
        [("%next = OpFunctionCall %uint %helper %sum %i", "%next = OpFunctionCall %uint %helper %sum %id0")]),
    "call_argument_count": ("1 arguments for a function of 2 parameters",
        [("%next = OpFunctionCall %uint %helper %sum %i", "%next = OpFunctionCall %uint %helper %sum")]),
    "branch_to_value": ("is not a label of this function",
        [("               OpBranch %body\n", "               OpBranch %n\n")]),
    "branch_to_other_function": ("is not a label of this function",
        [("               OpBranch %body\n", "               OpBranch %hentry\n")]),
    "branch_to_entry": ("the entry block",
        [("               OpBranch %exit\n", "               OpBranch %entry\n")]),
    "phi_parent_not_predecessor": ("is not a predecessor of block",
        [("%result = OpPhi %uint %uint_0 %entry %last %after", "%result = OpPhi %uint %uint_0 %entry %last %after %uint_1 %pre")]),
    "phi_parent_twice": ("more than once",
        [("%result = OpPhi %uint %uint_0 %entry %last %after", "%result = OpPhi %uint %uint_0 %entry %last %after %uint_1 %entry")]),
    "phi_value_not_dominating": ("does not dominate the end of that parent",
        [("%result = OpPhi %uint %uint_0 %entry %last %after", "%result = OpPhi %uint %id0u %entry %last %after"),
         ("%ptr = OpInBoundsPtrAccessChain %ptr_g_uint %out %id0", "%ptr = OpInBoundsPtrAccessChain %ptr_g_uint %out %id0"),
         ("        %pre = OpLabel\n", "        %pre = OpLabel\n       %id0u = OpUConvert %uint %id0\n")]),
    "use_before_def": ("is used before its definition in the same block",
        [("        %inc = OpIAdd %uint %i %uint_1\n", "        %early = OpIAdd %uint %inc2 %uint_1\n        %inc2 = OpIAdd %uint %i %uint_1\n        %inc = OpIAdd %uint %i %uint_1\n")]),
    "return_value_in_void": ("OpReturnValue in a function that returns void",
        [("               OpReturn\n", "               OpReturnValue %uint_0\n")]),
    "undefined_id": ("is used but never defined",
        [("%inc = OpIAdd %uint %i %uint_1", "%inc = OpIAdd %uint %i %nowhere")]),
    # llvm-spirv 15's shape: the decoration of a conversion whose result a
    # phi used before its definition stays on an id nothing defines.
    "decoration_target_undefined": ("is used but never defined",
        [("OpDecorate %gid Constant", "OpDecorate %gid Constant\n               OpDecorate %lost SaturatedConversion")]),
    # llvm-spirv 15's shape: a constant bitcast inside a vector constant,
    # written before the composite it is made of.
    "constant_before_its_operand": ("is used before it is defined",
        [("   %uint_272 = OpConstant %uint 272\n",
          "   %uint_272 = OpConstant %uint 272\n      %v2uint = OpTypeVector %uint 2\n"
          "     %early = OpSpecConstantOp %ulong Bitcast %later\n"
          "     %later = OpConstantComposite %v2uint %uint_1 %uint_2\n")]),
    "function_type_mismatch": ("but the function type says",
        [("         %hb = OpFunctionParameter %uint\n", "         %hb = OpFunctionParameter %ulong\n"),
         ("         %hr = OpIAdd %uint %ha %hb\n", "         %hr = OpIAdd %uint %ha %ha\n")]),
    "vector_shuffle_count": ("2 components selected for a vector of 3",
        [("        %ids = OpLoad %v3ulong %gid Aligned 32\n",
          "        %ids = OpLoad %v3ulong %gid Aligned 32\n         %sh = OpVectorShuffle %v3ulong %ids %ids 0 1\n")]),
    "exec_mode_subgroup_size_16": ("execution mode SubgroupSize 16: clift's sub-groups have 8 work-items",
        [(CAPS, CAPS + "               OpCapability SubgroupDispatch\n"),
         ("OpExecutionMode %kernel LocalSize 8 1 1", "OpExecutionMode %kernel LocalSize 8 1 1\n               OpExecutionMode %kernel SubgroupSize 16 ;@")]),
    "unsupported_exec_mode_initializer": ("execution mode Initializer is not supported by clift",
        [("OpExecutionMode %kernel LocalSize 8 1 1", "OpExecutionMode %kernel LocalSize 8 1 1\n               OpExecutionMode %kernel Initializer")]),
}


def assemble(src, dst, version="spv1.0"):
    subprocess.run(["spirv-as", "--target-env", version, src, "-o", dst], check=True)


def main():
    for name, (expect, edits) in INVALID.items():
        text = BASE
        for old, new in edits:
            if text.count(old) < 1:
                sys.exit(f"{name}: {old!r} not in the base module")
            text = text.replace(old, new, 1)
        if name in ("unsupported_exec_mode_initializer", "exec_mode_subgroup_size_16"):
            target = "; target: spv1.1\n"
        elif any(e in NU_EDITS for e in edits) or name == "clustered_without_capability":
            target = "; target: spv1.3\n"
        else:
            target = ""
        path = os.path.join(INVALID_DIR, name + ".spvasm")
        with open(path, "w") as f:
            f.write(f"; rule: {name.replace('_', ' ')}\n; expect: {expect}\n{target}" + text)
    for src in sorted(os.listdir(os.path.join(HERE, "valid"))):
        if src.endswith(".spvasm"):
            path = os.path.join(HERE, "valid", src)
            first = open(path).readline()
            version = first.split("target-env")[1].split()[0] if "target-env" in first else "spv1.0"
            assemble(path, path[:-7] + ".spv", version)
    assemble(os.path.join(HERE, "base.spvasm"), os.path.join(HERE, "valid", "base.spv"))
    print("now run conformance/corpus/invalid/make.py to assemble the invalid modules")


if __name__ == "__main__":
    main()
