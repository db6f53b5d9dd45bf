// One SM90a warpgroup MMA (SS): the CTA stages A (64x16, K-major, 128B swizzle) and B (64x16, K-major,
// no swizzle) from global memory into SMEM, fences the generic-proxy writes for the async proxy, builds
// both descriptors from the layouts, and runs wgmma m64n64k16 f16 -> f32 with C loaded from memory.
//   mmatom-opt examples/wgmma_m64n64k16_f16.mlir -p lower-mma-to-nvvm -t ptx
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @wgmma(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %sa = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %b_at = arith.constant 8192 : i64
    %sb = llvm.getelementptr %sa[%b_at] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    mma.copy_to_smem %pa layout("(64,16):(16,1)") into %sa as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    mma.copy_to_smem %pb layout("(64,16):(16,1)") into %sb as !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.barrier
    %da = mma.make_desc %sa : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %db = mma.make_desc %sb : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %c = mma.load_fragment %pc layout("(64,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.fence.aligned
    %d = mma.wgmma <m64n64k16> %da, %db, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    mma.store_fragment %d, %pd layout("(64,64):(64,1)") : !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">, !llvm.ptr<1>
    llvm.return
  }
}
