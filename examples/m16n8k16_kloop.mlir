// A 16x8 tile of D = A * B^T over K = 64 with one warp: the f32 accumulator is carried through an
// scf.for over four m16n8k16 steps, then converted to f16 and stored. A is 16x64 and B is 8x64, both
// row-major (K contiguous); D is 16x8 row-major f16.
//   mmatom-opt examples/m16n8k16_kloop.mlir -p lower-mma-to-ptx -t ptx
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @kloop(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %zero = arith.constant 0.000000e+00 : f32
    %k0 = arith.constant 0 : i32
    %kend = arith.constant 64 : i32
    %kstep = arith.constant 16 : i32
    %acc0 = mma.fill %zero : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %acc = scf.for %k = %k0 to %kend step %kstep iter_args(%c = %acc0) -> (!mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) : i32 {
      %a = mma.load_fragment %pa[%k] layout("(16,16):(64,1)") : !llvm.ptr<1>, i32 -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
      %b = mma.load_fragment %pb[%k] layout("(8,16):(64,1)") : !llvm.ptr<1>, i32 -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
      %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
      %next = mma.convert %d : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
      scf.yield %next : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    }
    %h = mma.convert %acc : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %h, %pd layout("(16,8):(8,1)") : !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}
