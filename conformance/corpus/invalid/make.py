#!/usr/bin/env python3
"""Builds the hand-written part of the SPIR-V corpus (run by ../regen.sh).

1. invalid/*.spvasm and tricky/*.spvasm -> .spv beside each, with
   `spirv-as --preserve-numeric-ids --target-env <target>` (spv1.0 unless the
   file says `; target: spv1.2`), then any `; patch:` lines applied to the
   words (for modules spirv-as refuses to assemble). A patch is
   `; patch: <word> = <value>` (an absolute word offset; 3 is the id bound) or
   `; patch: @<k> = <value>` (word k of the instruction marked `;@`).
   The instruction marked with a trailing `;@` comment is the one the build
   log must blame: its word offset is written into the file's
   `; expect-word:` line (added or updated in place).
2. invalid/header/*.bin: buffers clCreateProgramWithIL must refuse with
   CL_INVALID_VALUE (bad magic, length, header, word counts, versions),
   derived from tricky/minimal.spv.
3. tricky/<variant>.O<n>.<name>.spv: valid modules derived from the corpus
   (spv/O<n>/<name>.spv): byte-swapped (big-endian) copies and copies whose
   version word says SPIR-V 1.1, 1.2 or 1.3.
4. invalid/spirv-val.txt and tricky/spirv-val.txt: what spirv-val
   --target-env opencl2.2 says about each module, for comparison with clift.
"""

import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
TRICKY = os.path.join(CORPUS, "tricky")
HEADER = os.path.join(HERE, "header")
MAGIC = 0x07230203


def split_comment(line):
    """(code, comment or None) of one line of SPIR-V assembly; `;` inside a
    string literal does not start a comment."""
    quoted = False
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            return line[:i], line[i + 1:]
    return line, None


def instruction_offsets(words):
    """Word offset of every instruction after the 5-word header."""
    offsets = []
    at = 5
    while at < len(words):
        count = words[at] >> 16
        if count == 0:
            raise ValueError(f"word {at}: word count 0")
        offsets.append(at)
        at += count
    return offsets


def read_words(path):
    data = open(path, "rb").read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def write_words(path, words, big_endian=False):
    fmt = ">" if big_endian else "<"
    with open(path, "wb") as f:
        f.write(struct.pack(f"{fmt}{len(words)}I", *words))


def spirv_val(path):
    """(ok, first line of spirv-val's complaint)."""
    r = subprocess.run(
        ["spirv-val", "--target-env", "opencl2.2", path], capture_output=True, text=True
    )
    msg = next((l for l in (r.stderr + r.stdout).splitlines() if l.strip()), "")
    return r.returncode == 0, msg


def assemble(path):
    """Assembles one hand-written module; returns (spv path, spirv-val line)."""
    text = open(path).read()
    lines = text.splitlines()
    target = "spv1.0"
    patches = []
    marker = None
    count = 0
    for line in lines:
        code, comment = split_comment(line)
        if code.strip():
            if comment is not None and comment.startswith("@"):
                marker = count
            count += 1
            continue
        m = re.match(r"\s*;\s*([a-z-]+):\s*(.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "target":
            target = value
        elif key == "patch":
            pm = re.match(r"(@?)(\d+)\s*=\s*(\S+)$", value)
            if not pm:
                sys.exit(f"{path}: bad patch line: {value}")
            patches.append((pm.group(1) == "@", int(pm.group(2)), int(pm.group(3), 0)))
    spv = path[: -len(".spvasm")] + ".spv"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.spv")
        r = subprocess.run(
            ["spirv-as", "--preserve-numeric-ids", "--target-env", target, path, "-o", out],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            sys.exit(f"{path}: spirv-as failed:\n{r.stderr}")
        words = read_words(out)
    offsets = instruction_offsets(words)
    if len(offsets) != count:
        sys.exit(f"{path}: {count} instruction lines but {len(offsets)} instructions")
    for relative, k, value in patches:
        if relative:
            if marker is None:
                sys.exit(f"{path}: a patch relative to the marked instruction needs a ;@ marker")
            k += offsets[marker]
        words[k] = value
    write_words(spv, words)
    # Keep the `; expect-word:` line in step with the marked instruction.
    if os.path.dirname(path) == HERE:
        new = [l for l in lines if not re.match(r"\s*;\s*expect-word:", l)]
        if marker is not None:
            at = next(i for i, l in enumerate(new) if re.match(r"\s*;\s*expect:", l))
            new.insert(at + 1, f"; expect-word: {offsets[marker]}")
        new_text = "\n".join(new) + "\n"
        if new_text != text:
            open(path, "w").write(new_text)
    ok, msg = spirv_val(spv)
    return spv, "accepted" if ok else msg


def header_buffers():
    """invalid/header/*.bin from tricky/minimal.spv."""
    base = read_words(os.path.join(TRICKY, "minimal.spv"))
    raw = struct.pack(f"<{len(base)}I", *base)
    os.makedirs(HEADER, exist_ok=True)
    for old in os.listdir(HEADER):
        if old.endswith(".bin"):
            os.remove(os.path.join(HEADER, old))

    def put(name, data):
        open(os.path.join(HEADER, name + ".bin"), "wb").write(data)

    def patched(k, value):
        w = list(base)
        w[k] = value
        return struct.pack(f"<{len(w)}I", *w)

    offsets = instruction_offsets(base)
    put("empty", b"")
    put("wrong_magic", patched(0, 0x07230204))
    put("byte_swapped_magic_only", patched(0, 0x03022307)[:4] + raw[4:])  # not a swapped module: the rest stays LE
    put("length_not_multiple_of_4", raw + b"\x00\x00")
    put("length_one_byte_short", raw[:-1])
    put("shorter_than_header", raw[:16])
    put("header_truncated_to_magic", raw[:4])
    first = offsets[0]
    put("word_count_zero", patched(first, base[first] & 0xFFFF))
    last = offsets[-1]
    put("runs_past_end", patched(last, (2 << 16) | (base[last] & 0xFFFF)))
    mid = offsets[len(offsets) // 2]
    put("word_count_too_large_mid", patched(mid, (0xFFFF << 16) | (base[mid] & 0xFFFF)))
    put("version_1_4", patched(1, 0x00010400))
    put("version_1_5", patched(1, 0x00010500))
    put("version_2_0", patched(1, 0x00020000))
    put("version_0_9", patched(1, 0x00000900))


def derived_tricky():
    """Byte-swapped and version-patched copies of corpus modules."""
    for old in os.listdir(TRICKY):
        if re.match(r"[a-z0-9_-]+\.O[02]\.[a-z0-9_]+\.spv$", old):
            os.remove(os.path.join(TRICKY, old))
    plan = [
        # (variant, level, corpus module)
        ("be", 0, "calls"),
        ("be", 2, "loops"),
        ("be", 2, "atomics_c11"),
        ("be", 2, "vec16"),
        ("be", 0, "struct_value"),
        ("v1_1", 2, "scan_sort"),
        ("v1_1", 0, "struct_value"),
        ("v1_2", 2, "scan_sort"),
        ("v1_2", 0, "generic_ptr"),
        ("v1_3", 2, "scan_sort"),
        ("be-v1_2", 2, "calls"),
    ]
    for variant, level, name in plan:
        words = read_words(os.path.join(CORPUS, "spv", f"O{level}", name + ".spv"))
        if "v1_1" in variant:
            words[1] = 0x00010100
        if "v1_2" in variant:
            words[1] = 0x00010200
        if "v1_3" in variant:
            words[1] = 0x00010300
        write_words(
            os.path.join(TRICKY, f"{variant}.O{level}.{name}.spv"), words, big_endian=variant.startswith("be")
        )


def main():
    report = {HERE: [], TRICKY: []}
    for d in (TRICKY, HERE):  # tricky/minimal.spv first: the header buffers derive from it
        for f in sorted(os.listdir(d)):
            if f.endswith(".spvasm"):
                spv, val = assemble(os.path.join(d, f))
                report[d].append(f"{os.path.basename(spv)}: {val}")
                print(f"ok   {os.path.relpath(spv, CORPUS)} (spirv-val: {val})")
    header_buffers()
    print(f"ok   {len(os.listdir(HEADER))} buffers in invalid/header/")
    derived_tricky()
    for f in sorted(os.listdir(TRICKY)):
        if f.endswith(".spv") and not os.path.exists(os.path.join(TRICKY, f[:-4] + ".spvasm")):
            path = os.path.join(TRICKY, f)
            if f.startswith("be"):
                # spirv-val reads host order only: validate the little-endian words.
                data = open(path, "rb").read()
                with tempfile.TemporaryDirectory() as tmp:
                    le = os.path.join(tmp, "le.spv")
                    write_words(le, list(struct.unpack(f">{len(data) // 4}I", data)))
                    ok, msg = spirv_val(le)
            else:
                ok, msg = spirv_val(path)
            report[TRICKY].append(f"{f}: {'accepted' if ok else msg}")
            print(f"ok   tricky/{f}")
    heads = {
        HERE: "# What spirv-val --target-env opencl2.2 says about each invalid module (written by make.py).\n"
        "# clift must refuse every one; where spirv-val accepts, the rule is OpenCL- or device-specific.\n",
        TRICKY: "# What spirv-val --target-env opencl2.2 says about each tricky module (written by make.py).\n"
        "# clift must build every one, including those spirv-val refuses.\n",
    }
    for d, lines in report.items():
        with open(os.path.join(d, "spirv-val.txt"), "w") as f:
            f.write(heads[d] + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
