// RUN: mmatom-opt %s | filecheck %s
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK: mma.target = #mma.target<sm_90a>
  // CHECK-LABEL: func.func @dense(
  func.func @dense(%a: !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, %b: !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, %c: !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) {
    // CHECK: %{{.*}} = mma.sync <m16n8k16> %{{.*}}, %{{.*}}, %{{.*}} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return
  }
  // CHECK-LABEL: func.func @int8(
  func.func @int8(%a: !mma.frag<A, s8, "((4,8),(4,2,2)):((64,1),(16,8,256))">, %b: !mma.frag<B, u8, "((4,8),(4,2)):((32,1),(8,128))">, %c: !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))">) {
    // CHECK: mma.sync <m16n8k32> %{{.*}}, %{{.*}}, %{{.*}} satfinite :
    %d = mma.sync <m16n8k32> %a, %b, %c satfinite : !mma.frag<A, s8, "((4,8),(4,2,2)):((64,1),(16,8,256))">, !mma.frag<B, u8, "((4,8),(4,2)):((32,1),(8,128))">, !mma.frag<C, s32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, s32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return
  }
  // CHECK-LABEL: func.func @quadpair(
  func.func @quadpair(%a: !mma.frag<A, f16, "((4,2),4):((8,4),1)">, %b: !mma.frag<B, f16, "((4,2),4):((8,4),1)">, %c: !mma.frag<C, f32, "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))">) {
    // CHECK: mma.sync <m8n8k4> %{{.*}}, %{{.*}}, %{{.*}} {layout_a = #mma.layout<col>, layout_b = #mma.layout<row>}
    %d = mma.sync <m8n8k4> %a, %b, %c {layout_a = #mma.layout<col>, layout_b = #mma.layout<row>} : !mma.frag<A, f16, "((4,2),4):((8,4),1)">, !mma.frag<B, f16, "((4,2),4):((8,4),1)">, !mma.frag<C, f32, "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"> -> !mma.frag<D, f32, "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))">
    func.return
  }
  // CHECK-LABEL: func.func @sparse(
  func.func @sparse(%a: !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">, %b: !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, %c: !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, %e: !mma.frag<E, u8, "((4,8),1):((1,4),0)">) {
    // CHECK: mma.sp <m16n8k16> %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} selector(3 : i64) ordered_metadata :
    %d = mma.sp <m16n8k16> %a, %b, %c, %e selector(3 : i64) ordered_metadata : !mma.frag<A, f16, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<E, u8, "((4,8),1):((1,4),0)"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return
  }
  // CHECK-LABEL: func.func @wgmma_ss(
  func.func @wgmma_ss(%a: !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, %b: !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, %c: !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) {
    // CHECK: mma.wgmma <m64n64k16> %{{.*}}, %{{.*}}, %{{.*}} : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
    %d = mma.wgmma <m64n64k16> %a, %b, %c : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    func.return
  }
  // CHECK-LABEL: func.func @wgmma_rs(
  func.func @wgmma_rs(%a: !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, %b: !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((64,1),(8,2)):((1,0),(64,512))">, %c: !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">) {
    // CHECK: mma.wgmma <m64n64k16> %{{.*}}, %{{.*}}, %{{.*}} {scale_a = -1 : i32}
    %d = mma.wgmma <m64n64k16> %a, %b, %c {scale_a = -1 : i32} : !mma.frag<A, bf16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))">, !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((64,1),(8,2)):((1,0),(64,512))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
    func.return
  }
}

// -----
// The same IR is accepted by the sm_100a and sm_120a families where they support it.
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  // CHECK-LABEL: func.func @umma(
  func.func @umma(%a: !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),16):((64,512),1)">, %b: !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),16):((64,512),1)">, %d: !mma.tmem<f32, 128x256>) {
    // CHECK: mma.tcgen05 <m128n256k16> f16 cta_group(1 : i32) %{{.*}}, %{{.*}}, %{{.*}} :
    mma.tcgen05 <m128n256k16> f16 cta_group(1 : i32) %a, %b, %d : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),16):((64,512),1)">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),16):((64,512),1)">, !mma.tmem<f32, 128x256>
    func.return
  }
  // 128B swizzle with 32-byte atoms (Swizzle<2,5,2>): MN-major, four K rows per atom
  // CHECK-LABEL: func.func @umma_base32b(
  func.func @umma_base32b(%a: !mma.smem_desc<A, tf32, mn, sw128_base32b, "Sw<2,5,2> o 0 o ((32,4),(4,2)):((1,256),(32,128))">, %b: !mma.smem_desc<B, tf32, k, none, "((8,16),(4,2)):((4,64),(1,32))">, %d: !mma.tmem<f32, 128x128>) {
    // CHECK: mma.tcgen05 <m128n128k8> tf32 cta_group(1 : i32) %{{.*}}, %{{.*}}, %{{.*}} : !mma.smem_desc<A, tf32, mn, sw128_base32b, "Sw<2,5,2> o 0 o ((32,4),(4,2)):((1,256),(32,128))">
    mma.tcgen05 <m128n128k8> tf32 cta_group(1 : i32) %a, %b, %d : !mma.smem_desc<A, tf32, mn, sw128_base32b, "Sw<2,5,2> o 0 o ((32,4),(4,2)):((1,256),(32,128))">, !mma.smem_desc<B, tf32, k, none, "((8,16),(4,2)):((4,64),(1,32))">, !mma.tmem<f32, 128x128>
    func.return
  }
}
