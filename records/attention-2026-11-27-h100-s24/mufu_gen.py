"""PTX for the MUFU throughput probe: ex2 on f32, f16x2, bf16x2 in 8 independent chains."""
import sys
KINDS = {"f32": ("f32", "ex2.approx.ftz.f32", 1), "f16x2": ("b32", "ex2.approx.f16x2", 2),
         "bf16x2": ("b32", "ex2.approx.ftz.bf16x2", 2), "f16": ("b16", "ex2.approx.f16", 1)}
def kernel(name, reg, op, _):
    chains = 8
    lines = [f".visible .entry ex2_{name}(.param .u64 out, .param .u32 iters) {{",
             f"  .reg .{reg} %v<{chains}>;", "  .reg .u32 %r<4>;", "  .reg .pred %p;", "  .reg .u64 %rd<3>;",
             "  mov.u32 %r1, %tid.x;"]
    for c in range(chains):
        if reg == "f32":
            lines.append(f"  cvt.rn.f32.u32 %v{c}, %r1; mul.f32 %v{c}, %v{c}, 0f38000000;")
        elif reg == "b16":
            lines.append(f"  cvt.u16.u32 %v{c}, %r1;")
        else:
            lines.append(f"  and.b32 %v{c}, %r1, 0x00ff00ff;")
    lines += ["  ld.param.u32 %r2, [iters];", "LOOP:"]
    for _ in range(4):
        for c in range(chains):
            lines.append(f"  {op} %v{c}, %v{c};")
    lines += ["  sub.u32 %r2, %r2, 1;", "  setp.ne.u32 %p, %r2, 0;", "  @%p bra LOOP;"]
    acc = "%v0"
    for c in range(1, chains):
        lines.append(f"  xor.b{32 if reg != 'b16' else 16} %v0, %v0, %v{c};" if reg != "f32" else f"  add.f32 %v0, %v0, %v{c};")
    lines += ["  ld.param.u64 %rd1, [out];", "  cvta.to.global.u64 %rd1, %rd1;", "  mul.wide.u32 %rd2, %r1, 4;",
              "  add.u64 %rd1, %rd1, %rd2;"]
    lines.append(f"  st.global.{'f32' if reg=='f32' else ('b32' if reg=='b32' else 'b16')} [%rd1], %v0;")
    lines += ["  ret;", "}"]
    return "\n".join(lines)
print(".version 8.0\n.target sm_90a\n.address_size 64\n")
for name, spec in KINDS.items():
    print(kernel(name, *spec))
