"""Small kernels the GPU tests share (text, so that each test compiles its own)."""

# stores its i32 and f32 arguments to p[0] and p[1]
STORE_SCALARS = """
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%p: !llvm.ptr<1>, %n: i32, %x: f32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    llvm.store %n, %p : i32, !llvm.ptr<1>
    %q = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    llvm.store %x, %q : f32, !llvm.ptr<1>
    llvm.return
  }
}
"""
