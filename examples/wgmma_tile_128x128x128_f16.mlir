// A 128x128x128 tile of D = A * B^T + C on two warpgroups (256 threads): A (128x128) and B (128x128) are
// staged K-major with 128B swizzle as two 64-wide swizzle atoms along K (64 KiB of SMEM in all), then
// mma.wgmma_tile issues, per warpgroup, eight m64n128k16 atoms along K, advancing both descriptors by
// 32 bytes per step (and by 16 KiB to the second swizzle atom), accumulating in registers.
//   mmatom-opt examples/wgmma_tile_128x128x128_f16.mlir -p lower-mma-to-nvvm -t ptx
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tile(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 32768 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(128,128):(128,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))"> threads(256 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(128,128):(128,1)") into %sb as !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))"> threads(256 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
    %c = mma.load_fragment %pc layout("(128,128):(128,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma_tile <m128n128k128> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(128,128):(128,1)") : !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">, !llvm.ptr<1>
    llvm.return
  }
}
