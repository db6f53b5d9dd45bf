// A whole tcgen05 kernel: mbarrier, TMEM allocation by warp 0 through the SMEM slot, SM100 SMEM
// descriptors (bits 46-48 = 0b001), the MMA and its commit issued by thread 0 with the instruction
// descriptor packed from the atom (0x08100010 = 135266320: D f32, A/B f16 K-major, N 64, M 128), the
// mbarrier wait, .32x32b loads per warp (lane offset 32w << 16), dealloc after fence/barrier/fence,
// relinquish. Then the PTX instructions. (ptxas-validated only: no SM100 GPU here.)
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> "f16" cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// CHECK:      builtin.module attributes {mma.target = "sm_100a"} {
// CHECK-NEXT: llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
// CHECK-NEXT: llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
// CHECK-NEXT: llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
// CHECK-NEXT: %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
// CHECK-NEXT: %sa = llvm.ptrtoint %smem : !llvm.ptr<3> to i64
// CHECK-NEXT: %sa_1 = arith.constant 262143 : i64
// CHECK-NEXT: %sa_2 = arith.andi %sa, %sa_1 : i64
// CHECK-NEXT: %sa_3 = arith.constant 4 : i64
// CHECK-NEXT: %sa_4 = arith.shrui %sa_2, %sa_3 : i64
// CHECK-NEXT: %sa_5 = arith.constant 70437464178688 : i64
// CHECK-NEXT: %sa_6 = arith.ori %sa_4, %sa_5 : i64
// CHECK-NEXT: %sb = llvm.ptrtoint %smem : !llvm.ptr<3> to i64
// CHECK-NEXT: %sb_1 = arith.constant 262143 : i64
// CHECK-NEXT: %sb_2 = arith.andi %sb, %sb_1 : i64
// CHECK-NEXT: %sb_3 = arith.constant 4 : i64
// CHECK-NEXT: %sb_4 = arith.shrui %sb_2, %sb_3 : i64
// CHECK-NEXT: %sb_5 = arith.constant 70437464178688 : i64
// CHECK-NEXT: %sb_6 = arith.ori %sb_4, %sb_5 : i64
// CHECK-NEXT: %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
// CHECK-NEXT: %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
// CHECK-NEXT: %zero = arith.constant 0 : i32
// CHECK-NEXT: %ticks = arith.constant 10000000 : i32
// CHECK-NEXT: %t = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %t_1 = arith.constant 32 : i32
// CHECK-NEXT: %t_2 = arith.cmpi ult, %t, %t_1 : i32
// CHECK-NEXT: scf.if %t_2 {
// CHECK-NEXT: %0 = arith.constant 64 : i32
// CHECK-NEXT: nvvm.tcgen05.alloc %slot, %0 {group = #nvvm.cta_group<cta_1>} : !llvm.ptr<3>, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: %t_3 = llvm.load %slot : !llvm.ptr<3> -> i32
// CHECK-NEXT: %t_4 = llvm.inttoptr %t_3 : i32 to !llvm.ptr<6>
// CHECK-NEXT: %1 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %2 = arith.constant 1 : i32
// CHECK-NEXT: %3 = arith.cmpi ult, %1, %2 : i32
// CHECK-NEXT: scf.if %3 {
// CHECK-NEXT: %4 = arith.constant 135266320 : i32
// CHECK-NEXT: %5 = arith.constant false
// CHECK-NEXT: nvvm.tcgen05.mma %t_4, %sa_6, %sb_6, %4, %5 {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: %6 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %7 = arith.constant 1 : i32
// CHECK-NEXT: %8 = arith.cmpi ult, %6, %7 : i32
// CHECK-NEXT: scf.if %8 {
// CHECK-NEXT: nvvm.tcgen05.commit %mbar {group = #nvvm.cta_group<cta_1>} : !llvm.ptr<3>
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %d = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %d_1 = arith.constant 5 : i32
// CHECK-NEXT: %d_2 = arith.shrui %d, %d_1 : i32
// CHECK-NEXT: %d_3 = arith.constant 3 : i32
// CHECK-NEXT: %d_4 = arith.andi %d_2, %d_3 : i32
// CHECK-NEXT: %d_5 = arith.constant 21 : i32
// CHECK-NEXT: %d_6 = arith.shli %d_4, %d_5 : i32
// CHECK-NEXT: %d_7 = llvm.ptrtoint %t_4 : !llvm.ptr<6> to i32
// CHECK-NEXT: %d_8 = arith.addi %d_7, %d_6 : i32
// CHECK-NEXT: %d_9 = llvm.inttoptr %d_8 : i32 to !llvm.ptr<6>
// CHECK-NEXT: %d_10 = nvvm.tcgen05.ld %d_9 {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// CHECK-NEXT: %d_11 = arith.constant 0 : i32
// CHECK-NEXT: %d_12 = llvm.extractelement %d_10[%d_11 : i32] : vector<64xi32>
// CHECK-NEXT: %d_13 = arith.bitcast %d_12 : i32 to f32
// CHECK-NEXT: %d_14 = arith.constant 1 : i32
// CHECK-NEXT: %d_15 = llvm.extractelement %d_10[%d_14 : i32] : vector<64xi32>
// CHECK-NEXT: %d_16 = arith.bitcast %d_15 : i32 to f32
// CHECK-NEXT: %d_17 = arith.constant 2 : i32
// CHECK-NEXT: %d_18 = llvm.extractelement %d_10[%d_17 : i32] : vector<64xi32>
// CHECK-NEXT: %d_19 = arith.bitcast %d_18 : i32 to f32
// CHECK-NEXT: %d_20 = llvm.extractelement %d_10[%d_3 : i32] : vector<64xi32>
// CHECK-NEXT: %d_21 = arith.bitcast %d_20 : i32 to f32
// CHECK-NEXT: %d_22 = arith.constant 4 : i32
// CHECK-NEXT: %d_23 = llvm.extractelement %d_10[%d_22 : i32] : vector<64xi32>
// CHECK-NEXT: %d_24 = arith.bitcast %d_23 : i32 to f32
// CHECK-NEXT: %d_25 = llvm.extractelement %d_10[%d_1 : i32] : vector<64xi32>
// CHECK-NEXT: %d_26 = arith.bitcast %d_25 : i32 to f32
// CHECK-NEXT: %d_27 = arith.constant 6 : i32
// CHECK-NEXT: %d_28 = llvm.extractelement %d_10[%d_27 : i32] : vector<64xi32>
// CHECK-NEXT: %d_29 = arith.bitcast %d_28 : i32 to f32
// CHECK-NEXT: %d_30 = arith.constant 7 : i32
// CHECK-NEXT: %d_31 = llvm.extractelement %d_10[%d_30 : i32] : vector<64xi32>
// CHECK-NEXT: %d_32 = arith.bitcast %d_31 : i32 to f32
// CHECK-NEXT: %d_33 = arith.constant 8 : i32
// CHECK-NEXT: %d_34 = llvm.extractelement %d_10[%d_33 : i32] : vector<64xi32>
// CHECK-NEXT: %d_35 = arith.bitcast %d_34 : i32 to f32
// CHECK-NEXT: %d_36 = arith.constant 9 : i32
// CHECK-NEXT: %d_37 = llvm.extractelement %d_10[%d_36 : i32] : vector<64xi32>
// CHECK-NEXT: %d_38 = arith.bitcast %d_37 : i32 to f32
// CHECK-NEXT: %d_39 = arith.constant 10 : i32
// CHECK-NEXT: %d_40 = llvm.extractelement %d_10[%d_39 : i32] : vector<64xi32>
// CHECK-NEXT: %d_41 = arith.bitcast %d_40 : i32 to f32
// CHECK-NEXT: %d_42 = arith.constant 11 : i32
// CHECK-NEXT: %d_43 = llvm.extractelement %d_10[%d_42 : i32] : vector<64xi32>
// CHECK-NEXT: %d_44 = arith.bitcast %d_43 : i32 to f32
// CHECK-NEXT: %d_45 = arith.constant 12 : i32
// CHECK-NEXT: %d_46 = llvm.extractelement %d_10[%d_45 : i32] : vector<64xi32>
// CHECK-NEXT: %d_47 = arith.bitcast %d_46 : i32 to f32
// CHECK-NEXT: %d_48 = arith.constant 13 : i32
// CHECK-NEXT: %d_49 = llvm.extractelement %d_10[%d_48 : i32] : vector<64xi32>
// CHECK-NEXT: %d_50 = arith.bitcast %d_49 : i32 to f32
// CHECK-NEXT: %d_51 = arith.constant 14 : i32
// CHECK-NEXT: %d_52 = llvm.extractelement %d_10[%d_51 : i32] : vector<64xi32>
// CHECK-NEXT: %d_53 = arith.bitcast %d_52 : i32 to f32
// CHECK-NEXT: %d_54 = arith.constant 15 : i32
// CHECK-NEXT: %d_55 = llvm.extractelement %d_10[%d_54 : i32] : vector<64xi32>
// CHECK-NEXT: %d_56 = arith.bitcast %d_55 : i32 to f32
// CHECK-NEXT: %d_57 = arith.constant 16 : i32
// CHECK-NEXT: %d_58 = llvm.extractelement %d_10[%d_57 : i32] : vector<64xi32>
// CHECK-NEXT: %d_59 = arith.bitcast %d_58 : i32 to f32
// CHECK-NEXT: %d_60 = arith.constant 17 : i32
// CHECK-NEXT: %d_61 = llvm.extractelement %d_10[%d_60 : i32] : vector<64xi32>
// CHECK-NEXT: %d_62 = arith.bitcast %d_61 : i32 to f32
// CHECK-NEXT: %d_63 = arith.constant 18 : i32
// CHECK-NEXT: %d_64 = llvm.extractelement %d_10[%d_63 : i32] : vector<64xi32>
// CHECK-NEXT: %d_65 = arith.bitcast %d_64 : i32 to f32
// CHECK-NEXT: %d_66 = arith.constant 19 : i32
// CHECK-NEXT: %d_67 = llvm.extractelement %d_10[%d_66 : i32] : vector<64xi32>
// CHECK-NEXT: %d_68 = arith.bitcast %d_67 : i32 to f32
// CHECK-NEXT: %d_69 = arith.constant 20 : i32
// CHECK-NEXT: %d_70 = llvm.extractelement %d_10[%d_69 : i32] : vector<64xi32>
// CHECK-NEXT: %d_71 = arith.bitcast %d_70 : i32 to f32
// CHECK-NEXT: %d_72 = llvm.extractelement %d_10[%d_5 : i32] : vector<64xi32>
// CHECK-NEXT: %d_73 = arith.bitcast %d_72 : i32 to f32
// CHECK-NEXT: %d_74 = arith.constant 22 : i32
// CHECK-NEXT: %d_75 = llvm.extractelement %d_10[%d_74 : i32] : vector<64xi32>
// CHECK-NEXT: %d_76 = arith.bitcast %d_75 : i32 to f32
// CHECK-NEXT: %d_77 = arith.constant 23 : i32
// CHECK-NEXT: %d_78 = llvm.extractelement %d_10[%d_77 : i32] : vector<64xi32>
// CHECK-NEXT: %d_79 = arith.bitcast %d_78 : i32 to f32
// CHECK-NEXT: %d_80 = arith.constant 24 : i32
// CHECK-NEXT: %d_81 = llvm.extractelement %d_10[%d_80 : i32] : vector<64xi32>
// CHECK-NEXT: %d_82 = arith.bitcast %d_81 : i32 to f32
// CHECK-NEXT: %d_83 = arith.constant 25 : i32
// CHECK-NEXT: %d_84 = llvm.extractelement %d_10[%d_83 : i32] : vector<64xi32>
// CHECK-NEXT: %d_85 = arith.bitcast %d_84 : i32 to f32
// CHECK-NEXT: %d_86 = arith.constant 26 : i32
// CHECK-NEXT: %d_87 = llvm.extractelement %d_10[%d_86 : i32] : vector<64xi32>
// CHECK-NEXT: %d_88 = arith.bitcast %d_87 : i32 to f32
// CHECK-NEXT: %d_89 = arith.constant 27 : i32
// CHECK-NEXT: %d_90 = llvm.extractelement %d_10[%d_89 : i32] : vector<64xi32>
// CHECK-NEXT: %d_91 = arith.bitcast %d_90 : i32 to f32
// CHECK-NEXT: %d_92 = arith.constant 28 : i32
// CHECK-NEXT: %d_93 = llvm.extractelement %d_10[%d_92 : i32] : vector<64xi32>
// CHECK-NEXT: %d_94 = arith.bitcast %d_93 : i32 to f32
// CHECK-NEXT: %d_95 = arith.constant 29 : i32
// CHECK-NEXT: %d_96 = llvm.extractelement %d_10[%d_95 : i32] : vector<64xi32>
// CHECK-NEXT: %d_97 = arith.bitcast %d_96 : i32 to f32
// CHECK-NEXT: %d_98 = arith.constant 30 : i32
// CHECK-NEXT: %d_99 = llvm.extractelement %d_10[%d_98 : i32] : vector<64xi32>
// CHECK-NEXT: %d_100 = arith.bitcast %d_99 : i32 to f32
// CHECK-NEXT: %d_101 = arith.constant 31 : i32
// CHECK-NEXT: %d_102 = llvm.extractelement %d_10[%d_101 : i32] : vector<64xi32>
// CHECK-NEXT: %d_103 = arith.bitcast %d_102 : i32 to f32
// CHECK-NEXT: %d_104 = arith.constant 32 : i32
// CHECK-NEXT: %d_105 = llvm.extractelement %d_10[%d_104 : i32] : vector<64xi32>
// CHECK-NEXT: %d_106 = arith.bitcast %d_105 : i32 to f32
// CHECK-NEXT: %d_107 = arith.constant 33 : i32
// CHECK-NEXT: %d_108 = llvm.extractelement %d_10[%d_107 : i32] : vector<64xi32>
// CHECK-NEXT: %d_109 = arith.bitcast %d_108 : i32 to f32
// CHECK-NEXT: %d_110 = arith.constant 34 : i32
// CHECK-NEXT: %d_111 = llvm.extractelement %d_10[%d_110 : i32] : vector<64xi32>
// CHECK-NEXT: %d_112 = arith.bitcast %d_111 : i32 to f32
// CHECK-NEXT: %d_113 = arith.constant 35 : i32
// CHECK-NEXT: %d_114 = llvm.extractelement %d_10[%d_113 : i32] : vector<64xi32>
// CHECK-NEXT: %d_115 = arith.bitcast %d_114 : i32 to f32
// CHECK-NEXT: %d_116 = arith.constant 36 : i32
// CHECK-NEXT: %d_117 = llvm.extractelement %d_10[%d_116 : i32] : vector<64xi32>
// CHECK-NEXT: %d_118 = arith.bitcast %d_117 : i32 to f32
// CHECK-NEXT: %d_119 = arith.constant 37 : i32
// CHECK-NEXT: %d_120 = llvm.extractelement %d_10[%d_119 : i32] : vector<64xi32>
// CHECK-NEXT: %d_121 = arith.bitcast %d_120 : i32 to f32
// CHECK-NEXT: %d_122 = arith.constant 38 : i32
// CHECK-NEXT: %d_123 = llvm.extractelement %d_10[%d_122 : i32] : vector<64xi32>
// CHECK-NEXT: %d_124 = arith.bitcast %d_123 : i32 to f32
// CHECK-NEXT: %d_125 = arith.constant 39 : i32
// CHECK-NEXT: %d_126 = llvm.extractelement %d_10[%d_125 : i32] : vector<64xi32>
// CHECK-NEXT: %d_127 = arith.bitcast %d_126 : i32 to f32
// CHECK-NEXT: %d_128 = arith.constant 40 : i32
// CHECK-NEXT: %d_129 = llvm.extractelement %d_10[%d_128 : i32] : vector<64xi32>
// CHECK-NEXT: %d_130 = arith.bitcast %d_129 : i32 to f32
// CHECK-NEXT: %d_131 = arith.constant 41 : i32
// CHECK-NEXT: %d_132 = llvm.extractelement %d_10[%d_131 : i32] : vector<64xi32>
// CHECK-NEXT: %d_133 = arith.bitcast %d_132 : i32 to f32
// CHECK-NEXT: %d_134 = arith.constant 42 : i32
// CHECK-NEXT: %d_135 = llvm.extractelement %d_10[%d_134 : i32] : vector<64xi32>
// CHECK-NEXT: %d_136 = arith.bitcast %d_135 : i32 to f32
// CHECK-NEXT: %d_137 = arith.constant 43 : i32
// CHECK-NEXT: %d_138 = llvm.extractelement %d_10[%d_137 : i32] : vector<64xi32>
// CHECK-NEXT: %d_139 = arith.bitcast %d_138 : i32 to f32
// CHECK-NEXT: %d_140 = arith.constant 44 : i32
// CHECK-NEXT: %d_141 = llvm.extractelement %d_10[%d_140 : i32] : vector<64xi32>
// CHECK-NEXT: %d_142 = arith.bitcast %d_141 : i32 to f32
// CHECK-NEXT: %d_143 = arith.constant 45 : i32
// CHECK-NEXT: %d_144 = llvm.extractelement %d_10[%d_143 : i32] : vector<64xi32>
// CHECK-NEXT: %d_145 = arith.bitcast %d_144 : i32 to f32
// CHECK-NEXT: %d_146 = arith.constant 46 : i32
// CHECK-NEXT: %d_147 = llvm.extractelement %d_10[%d_146 : i32] : vector<64xi32>
// CHECK-NEXT: %d_148 = arith.bitcast %d_147 : i32 to f32
// CHECK-NEXT: %d_149 = arith.constant 47 : i32
// CHECK-NEXT: %d_150 = llvm.extractelement %d_10[%d_149 : i32] : vector<64xi32>
// CHECK-NEXT: %d_151 = arith.bitcast %d_150 : i32 to f32
// CHECK-NEXT: %d_152 = arith.constant 48 : i32
// CHECK-NEXT: %d_153 = llvm.extractelement %d_10[%d_152 : i32] : vector<64xi32>
// CHECK-NEXT: %d_154 = arith.bitcast %d_153 : i32 to f32
// CHECK-NEXT: %d_155 = arith.constant 49 : i32
// CHECK-NEXT: %d_156 = llvm.extractelement %d_10[%d_155 : i32] : vector<64xi32>
// CHECK-NEXT: %d_157 = arith.bitcast %d_156 : i32 to f32
// CHECK-NEXT: %d_158 = arith.constant 50 : i32
// CHECK-NEXT: %d_159 = llvm.extractelement %d_10[%d_158 : i32] : vector<64xi32>
// CHECK-NEXT: %d_160 = arith.bitcast %d_159 : i32 to f32
// CHECK-NEXT: %d_161 = arith.constant 51 : i32
// CHECK-NEXT: %d_162 = llvm.extractelement %d_10[%d_161 : i32] : vector<64xi32>
// CHECK-NEXT: %d_163 = arith.bitcast %d_162 : i32 to f32
// CHECK-NEXT: %d_164 = arith.constant 52 : i32
// CHECK-NEXT: %d_165 = llvm.extractelement %d_10[%d_164 : i32] : vector<64xi32>
// CHECK-NEXT: %d_166 = arith.bitcast %d_165 : i32 to f32
// CHECK-NEXT: %d_167 = arith.constant 53 : i32
// CHECK-NEXT: %d_168 = llvm.extractelement %d_10[%d_167 : i32] : vector<64xi32>
// CHECK-NEXT: %d_169 = arith.bitcast %d_168 : i32 to f32
// CHECK-NEXT: %d_170 = arith.constant 54 : i32
// CHECK-NEXT: %d_171 = llvm.extractelement %d_10[%d_170 : i32] : vector<64xi32>
// CHECK-NEXT: %d_172 = arith.bitcast %d_171 : i32 to f32
// CHECK-NEXT: %d_173 = arith.constant 55 : i32
// CHECK-NEXT: %d_174 = llvm.extractelement %d_10[%d_173 : i32] : vector<64xi32>
// CHECK-NEXT: %d_175 = arith.bitcast %d_174 : i32 to f32
// CHECK-NEXT: %d_176 = arith.constant 56 : i32
// CHECK-NEXT: %d_177 = llvm.extractelement %d_10[%d_176 : i32] : vector<64xi32>
// CHECK-NEXT: %d_178 = arith.bitcast %d_177 : i32 to f32
// CHECK-NEXT: %d_179 = arith.constant 57 : i32
// CHECK-NEXT: %d_180 = llvm.extractelement %d_10[%d_179 : i32] : vector<64xi32>
// CHECK-NEXT: %d_181 = arith.bitcast %d_180 : i32 to f32
// CHECK-NEXT: %d_182 = arith.constant 58 : i32
// CHECK-NEXT: %d_183 = llvm.extractelement %d_10[%d_182 : i32] : vector<64xi32>
// CHECK-NEXT: %d_184 = arith.bitcast %d_183 : i32 to f32
// CHECK-NEXT: %d_185 = arith.constant 59 : i32
// CHECK-NEXT: %d_186 = llvm.extractelement %d_10[%d_185 : i32] : vector<64xi32>
// CHECK-NEXT: %d_187 = arith.bitcast %d_186 : i32 to f32
// CHECK-NEXT: %d_188 = arith.constant 60 : i32
// CHECK-NEXT: %d_189 = llvm.extractelement %d_10[%d_188 : i32] : vector<64xi32>
// CHECK-NEXT: %d_190 = arith.bitcast %d_189 : i32 to f32
// CHECK-NEXT: %d_191 = arith.constant 61 : i32
// CHECK-NEXT: %d_192 = llvm.extractelement %d_10[%d_191 : i32] : vector<64xi32>
// CHECK-NEXT: %d_193 = arith.bitcast %d_192 : i32 to f32
// CHECK-NEXT: %d_194 = arith.constant 62 : i32
// CHECK-NEXT: %d_195 = llvm.extractelement %d_10[%d_194 : i32] : vector<64xi32>
// CHECK-NEXT: %d_196 = arith.bitcast %d_195 : i32 to f32
// CHECK-NEXT: %d_197 = arith.constant 63 : i32
// CHECK-NEXT: %d_198 = llvm.extractelement %d_10[%d_197 : i32] : vector<64xi32>
// CHECK-NEXT: %d_199 = arith.bitcast %d_198 : i32 to f32
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %9 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %10 = arith.constant 127 : i32
// CHECK-NEXT: %11 = arith.andi %9, %10 : i32
// CHECK-NEXT: %12 = arith.andi %11, %10 : i32
// CHECK-NEXT: %13 = arith.constant 6 : i32
// CHECK-NEXT: %14 = arith.shli %12, %13 : i32
// CHECK-NEXT: %15 = arith.constant 2 : i32
// CHECK-NEXT: %16 = arith.shli %14, %15 : i32
// CHECK-NEXT: %17 = arith.extui %16 : i32 to i64
// CHECK-NEXT: %18 = llvm.getelementptr %pd[%17] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_13, %18 : f32, !llvm.ptr<1>
// CHECK-NEXT: %19 = arith.constant 1 : i32
// CHECK-NEXT: %20 = arith.addi %14, %19 : i32
// CHECK-NEXT: %21 = arith.shli %20, %15 : i32
// CHECK-NEXT: %22 = arith.extui %21 : i32 to i64
// CHECK-NEXT: %23 = llvm.getelementptr %pd[%22] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_16, %23 : f32, !llvm.ptr<1>
// CHECK-NEXT: %24 = arith.addi %14, %15 : i32
// CHECK-NEXT: %25 = arith.shli %24, %15 : i32
// CHECK-NEXT: %26 = arith.extui %25 : i32 to i64
// CHECK-NEXT: %27 = llvm.getelementptr %pd[%26] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_19, %27 : f32, !llvm.ptr<1>
// CHECK-NEXT: %28 = arith.constant 3 : i32
// CHECK-NEXT: %29 = arith.addi %14, %28 : i32
// CHECK-NEXT: %30 = arith.shli %29, %15 : i32
// CHECK-NEXT: %31 = arith.extui %30 : i32 to i64
// CHECK-NEXT: %32 = llvm.getelementptr %pd[%31] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_21, %32 : f32, !llvm.ptr<1>
// CHECK-NEXT: %33 = arith.constant 4 : i32
// CHECK-NEXT: %34 = arith.addi %14, %33 : i32
// CHECK-NEXT: %35 = arith.shli %34, %15 : i32
// CHECK-NEXT: %36 = arith.extui %35 : i32 to i64
// CHECK-NEXT: %37 = llvm.getelementptr %pd[%36] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_24, %37 : f32, !llvm.ptr<1>
// CHECK-NEXT: %38 = arith.constant 5 : i32
// CHECK-NEXT: %39 = arith.addi %14, %38 : i32
// CHECK-NEXT: %40 = arith.shli %39, %15 : i32
// CHECK-NEXT: %41 = arith.extui %40 : i32 to i64
// CHECK-NEXT: %42 = llvm.getelementptr %pd[%41] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_26, %42 : f32, !llvm.ptr<1>
// CHECK-NEXT: %43 = arith.addi %14, %13 : i32
// CHECK-NEXT: %44 = arith.shli %43, %15 : i32
// CHECK-NEXT: %45 = arith.extui %44 : i32 to i64
// CHECK-NEXT: %46 = llvm.getelementptr %pd[%45] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_29, %46 : f32, !llvm.ptr<1>
// CHECK-NEXT: %47 = arith.constant 7 : i32
// CHECK-NEXT: %48 = arith.addi %14, %47 : i32
// CHECK-NEXT: %49 = arith.shli %48, %15 : i32
// CHECK-NEXT: %50 = arith.extui %49 : i32 to i64
// CHECK-NEXT: %51 = llvm.getelementptr %pd[%50] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_32, %51 : f32, !llvm.ptr<1>
// CHECK-NEXT: %52 = arith.constant 8 : i32
// CHECK-NEXT: %53 = arith.addi %14, %52 : i32
// CHECK-NEXT: %54 = arith.shli %53, %15 : i32
// CHECK-NEXT: %55 = arith.extui %54 : i32 to i64
// CHECK-NEXT: %56 = llvm.getelementptr %pd[%55] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_35, %56 : f32, !llvm.ptr<1>
// CHECK-NEXT: %57 = arith.constant 9 : i32
// CHECK-NEXT: %58 = arith.addi %14, %57 : i32
// CHECK-NEXT: %59 = arith.shli %58, %15 : i32
// CHECK-NEXT: %60 = arith.extui %59 : i32 to i64
// CHECK-NEXT: %61 = llvm.getelementptr %pd[%60] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_38, %61 : f32, !llvm.ptr<1>
// CHECK-NEXT: %62 = arith.constant 10 : i32
// CHECK-NEXT: %63 = arith.addi %14, %62 : i32
// CHECK-NEXT: %64 = arith.shli %63, %15 : i32
// CHECK-NEXT: %65 = arith.extui %64 : i32 to i64
// CHECK-NEXT: %66 = llvm.getelementptr %pd[%65] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_41, %66 : f32, !llvm.ptr<1>
// CHECK-NEXT: %67 = arith.constant 11 : i32
// CHECK-NEXT: %68 = arith.addi %14, %67 : i32
// CHECK-NEXT: %69 = arith.shli %68, %15 : i32
// CHECK-NEXT: %70 = arith.extui %69 : i32 to i64
// CHECK-NEXT: %71 = llvm.getelementptr %pd[%70] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_44, %71 : f32, !llvm.ptr<1>
// CHECK-NEXT: %72 = arith.constant 12 : i32
// CHECK-NEXT: %73 = arith.addi %14, %72 : i32
// CHECK-NEXT: %74 = arith.shli %73, %15 : i32
// CHECK-NEXT: %75 = arith.extui %74 : i32 to i64
// CHECK-NEXT: %76 = llvm.getelementptr %pd[%75] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_47, %76 : f32, !llvm.ptr<1>
// CHECK-NEXT: %77 = arith.constant 13 : i32
// CHECK-NEXT: %78 = arith.addi %14, %77 : i32
// CHECK-NEXT: %79 = arith.shli %78, %15 : i32
// CHECK-NEXT: %80 = arith.extui %79 : i32 to i64
// CHECK-NEXT: %81 = llvm.getelementptr %pd[%80] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_50, %81 : f32, !llvm.ptr<1>
// CHECK-NEXT: %82 = arith.constant 14 : i32
// CHECK-NEXT: %83 = arith.addi %14, %82 : i32
// CHECK-NEXT: %84 = arith.shli %83, %15 : i32
// CHECK-NEXT: %85 = arith.extui %84 : i32 to i64
// CHECK-NEXT: %86 = llvm.getelementptr %pd[%85] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_53, %86 : f32, !llvm.ptr<1>
// CHECK-NEXT: %87 = arith.constant 15 : i32
// CHECK-NEXT: %88 = arith.addi %14, %87 : i32
// CHECK-NEXT: %89 = arith.shli %88, %15 : i32
// CHECK-NEXT: %90 = arith.extui %89 : i32 to i64
// CHECK-NEXT: %91 = llvm.getelementptr %pd[%90] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_56, %91 : f32, !llvm.ptr<1>
// CHECK-NEXT: %92 = arith.constant 16 : i32
// CHECK-NEXT: %93 = arith.addi %14, %92 : i32
// CHECK-NEXT: %94 = arith.shli %93, %15 : i32
// CHECK-NEXT: %95 = arith.extui %94 : i32 to i64
// CHECK-NEXT: %96 = llvm.getelementptr %pd[%95] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_59, %96 : f32, !llvm.ptr<1>
// CHECK-NEXT: %97 = arith.constant 17 : i32
// CHECK-NEXT: %98 = arith.addi %14, %97 : i32
// CHECK-NEXT: %99 = arith.shli %98, %15 : i32
// CHECK-NEXT: %100 = arith.extui %99 : i32 to i64
// CHECK-NEXT: %101 = llvm.getelementptr %pd[%100] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_62, %101 : f32, !llvm.ptr<1>
// CHECK-NEXT: %102 = arith.constant 18 : i32
// CHECK-NEXT: %103 = arith.addi %14, %102 : i32
// CHECK-NEXT: %104 = arith.shli %103, %15 : i32
// CHECK-NEXT: %105 = arith.extui %104 : i32 to i64
// CHECK-NEXT: %106 = llvm.getelementptr %pd[%105] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_65, %106 : f32, !llvm.ptr<1>
// CHECK-NEXT: %107 = arith.constant 19 : i32
// CHECK-NEXT: %108 = arith.addi %14, %107 : i32
// CHECK-NEXT: %109 = arith.shli %108, %15 : i32
// CHECK-NEXT: %110 = arith.extui %109 : i32 to i64
// CHECK-NEXT: %111 = llvm.getelementptr %pd[%110] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_68, %111 : f32, !llvm.ptr<1>
// CHECK-NEXT: %112 = arith.constant 20 : i32
// CHECK-NEXT: %113 = arith.addi %14, %112 : i32
// CHECK-NEXT: %114 = arith.shli %113, %15 : i32
// CHECK-NEXT: %115 = arith.extui %114 : i32 to i64
// CHECK-NEXT: %116 = llvm.getelementptr %pd[%115] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_71, %116 : f32, !llvm.ptr<1>
// CHECK-NEXT: %117 = arith.constant 21 : i32
// CHECK-NEXT: %118 = arith.addi %14, %117 : i32
// CHECK-NEXT: %119 = arith.shli %118, %15 : i32
// CHECK-NEXT: %120 = arith.extui %119 : i32 to i64
// CHECK-NEXT: %121 = llvm.getelementptr %pd[%120] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_73, %121 : f32, !llvm.ptr<1>
// CHECK-NEXT: %122 = arith.constant 22 : i32
// CHECK-NEXT: %123 = arith.addi %14, %122 : i32
// CHECK-NEXT: %124 = arith.shli %123, %15 : i32
// CHECK-NEXT: %125 = arith.extui %124 : i32 to i64
// CHECK-NEXT: %126 = llvm.getelementptr %pd[%125] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_76, %126 : f32, !llvm.ptr<1>
// CHECK-NEXT: %127 = arith.constant 23 : i32
// CHECK-NEXT: %128 = arith.addi %14, %127 : i32
// CHECK-NEXT: %129 = arith.shli %128, %15 : i32
// CHECK-NEXT: %130 = arith.extui %129 : i32 to i64
// CHECK-NEXT: %131 = llvm.getelementptr %pd[%130] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_79, %131 : f32, !llvm.ptr<1>
// CHECK-NEXT: %132 = arith.constant 24 : i32
// CHECK-NEXT: %133 = arith.addi %14, %132 : i32
// CHECK-NEXT: %134 = arith.shli %133, %15 : i32
// CHECK-NEXT: %135 = arith.extui %134 : i32 to i64
// CHECK-NEXT: %136 = llvm.getelementptr %pd[%135] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_82, %136 : f32, !llvm.ptr<1>
// CHECK-NEXT: %137 = arith.constant 25 : i32
// CHECK-NEXT: %138 = arith.addi %14, %137 : i32
// CHECK-NEXT: %139 = arith.shli %138, %15 : i32
// CHECK-NEXT: %140 = arith.extui %139 : i32 to i64
// CHECK-NEXT: %141 = llvm.getelementptr %pd[%140] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_85, %141 : f32, !llvm.ptr<1>
// CHECK-NEXT: %142 = arith.constant 26 : i32
// CHECK-NEXT: %143 = arith.addi %14, %142 : i32
// CHECK-NEXT: %144 = arith.shli %143, %15 : i32
// CHECK-NEXT: %145 = arith.extui %144 : i32 to i64
// CHECK-NEXT: %146 = llvm.getelementptr %pd[%145] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_88, %146 : f32, !llvm.ptr<1>
// CHECK-NEXT: %147 = arith.constant 27 : i32
// CHECK-NEXT: %148 = arith.addi %14, %147 : i32
// CHECK-NEXT: %149 = arith.shli %148, %15 : i32
// CHECK-NEXT: %150 = arith.extui %149 : i32 to i64
// CHECK-NEXT: %151 = llvm.getelementptr %pd[%150] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_91, %151 : f32, !llvm.ptr<1>
// CHECK-NEXT: %152 = arith.constant 28 : i32
// CHECK-NEXT: %153 = arith.addi %14, %152 : i32
// CHECK-NEXT: %154 = arith.shli %153, %15 : i32
// CHECK-NEXT: %155 = arith.extui %154 : i32 to i64
// CHECK-NEXT: %156 = llvm.getelementptr %pd[%155] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_94, %156 : f32, !llvm.ptr<1>
// CHECK-NEXT: %157 = arith.constant 29 : i32
// CHECK-NEXT: %158 = arith.addi %14, %157 : i32
// CHECK-NEXT: %159 = arith.shli %158, %15 : i32
// CHECK-NEXT: %160 = arith.extui %159 : i32 to i64
// CHECK-NEXT: %161 = llvm.getelementptr %pd[%160] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_97, %161 : f32, !llvm.ptr<1>
// CHECK-NEXT: %162 = arith.constant 30 : i32
// CHECK-NEXT: %163 = arith.addi %14, %162 : i32
// CHECK-NEXT: %164 = arith.shli %163, %15 : i32
// CHECK-NEXT: %165 = arith.extui %164 : i32 to i64
// CHECK-NEXT: %166 = llvm.getelementptr %pd[%165] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_100, %166 : f32, !llvm.ptr<1>
// CHECK-NEXT: %167 = arith.constant 31 : i32
// CHECK-NEXT: %168 = arith.addi %14, %167 : i32
// CHECK-NEXT: %169 = arith.shli %168, %15 : i32
// CHECK-NEXT: %170 = arith.extui %169 : i32 to i64
// CHECK-NEXT: %171 = llvm.getelementptr %pd[%170] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_103, %171 : f32, !llvm.ptr<1>
// CHECK-NEXT: %172 = arith.constant 32 : i32
// CHECK-NEXT: %173 = arith.addi %14, %172 : i32
// CHECK-NEXT: %174 = arith.shli %173, %15 : i32
// CHECK-NEXT: %175 = arith.extui %174 : i32 to i64
// CHECK-NEXT: %176 = llvm.getelementptr %pd[%175] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_106, %176 : f32, !llvm.ptr<1>
// CHECK-NEXT: %177 = arith.constant 33 : i32
// CHECK-NEXT: %178 = arith.addi %14, %177 : i32
// CHECK-NEXT: %179 = arith.shli %178, %15 : i32
// CHECK-NEXT: %180 = arith.extui %179 : i32 to i64
// CHECK-NEXT: %181 = llvm.getelementptr %pd[%180] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_109, %181 : f32, !llvm.ptr<1>
// CHECK-NEXT: %182 = arith.constant 34 : i32
// CHECK-NEXT: %183 = arith.addi %14, %182 : i32
// CHECK-NEXT: %184 = arith.shli %183, %15 : i32
// CHECK-NEXT: %185 = arith.extui %184 : i32 to i64
// CHECK-NEXT: %186 = llvm.getelementptr %pd[%185] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_112, %186 : f32, !llvm.ptr<1>
// CHECK-NEXT: %187 = arith.constant 35 : i32
// CHECK-NEXT: %188 = arith.addi %14, %187 : i32
// CHECK-NEXT: %189 = arith.shli %188, %15 : i32
// CHECK-NEXT: %190 = arith.extui %189 : i32 to i64
// CHECK-NEXT: %191 = llvm.getelementptr %pd[%190] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_115, %191 : f32, !llvm.ptr<1>
// CHECK-NEXT: %192 = arith.constant 36 : i32
// CHECK-NEXT: %193 = arith.addi %14, %192 : i32
// CHECK-NEXT: %194 = arith.shli %193, %15 : i32
// CHECK-NEXT: %195 = arith.extui %194 : i32 to i64
// CHECK-NEXT: %196 = llvm.getelementptr %pd[%195] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_118, %196 : f32, !llvm.ptr<1>
// CHECK-NEXT: %197 = arith.constant 37 : i32
// CHECK-NEXT: %198 = arith.addi %14, %197 : i32
// CHECK-NEXT: %199 = arith.shli %198, %15 : i32
// CHECK-NEXT: %200 = arith.extui %199 : i32 to i64
// CHECK-NEXT: %201 = llvm.getelementptr %pd[%200] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_121, %201 : f32, !llvm.ptr<1>
// CHECK-NEXT: %202 = arith.constant 38 : i32
// CHECK-NEXT: %203 = arith.addi %14, %202 : i32
// CHECK-NEXT: %204 = arith.shli %203, %15 : i32
// CHECK-NEXT: %205 = arith.extui %204 : i32 to i64
// CHECK-NEXT: %206 = llvm.getelementptr %pd[%205] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_124, %206 : f32, !llvm.ptr<1>
// CHECK-NEXT: %207 = arith.constant 39 : i32
// CHECK-NEXT: %208 = arith.addi %14, %207 : i32
// CHECK-NEXT: %209 = arith.shli %208, %15 : i32
// CHECK-NEXT: %210 = arith.extui %209 : i32 to i64
// CHECK-NEXT: %211 = llvm.getelementptr %pd[%210] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_127, %211 : f32, !llvm.ptr<1>
// CHECK-NEXT: %212 = arith.constant 40 : i32
// CHECK-NEXT: %213 = arith.addi %14, %212 : i32
// CHECK-NEXT: %214 = arith.shli %213, %15 : i32
// CHECK-NEXT: %215 = arith.extui %214 : i32 to i64
// CHECK-NEXT: %216 = llvm.getelementptr %pd[%215] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_130, %216 : f32, !llvm.ptr<1>
// CHECK-NEXT: %217 = arith.constant 41 : i32
// CHECK-NEXT: %218 = arith.addi %14, %217 : i32
// CHECK-NEXT: %219 = arith.shli %218, %15 : i32
// CHECK-NEXT: %220 = arith.extui %219 : i32 to i64
// CHECK-NEXT: %221 = llvm.getelementptr %pd[%220] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_133, %221 : f32, !llvm.ptr<1>
// CHECK-NEXT: %222 = arith.constant 42 : i32
// CHECK-NEXT: %223 = arith.addi %14, %222 : i32
// CHECK-NEXT: %224 = arith.shli %223, %15 : i32
// CHECK-NEXT: %225 = arith.extui %224 : i32 to i64
// CHECK-NEXT: %226 = llvm.getelementptr %pd[%225] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_136, %226 : f32, !llvm.ptr<1>
// CHECK-NEXT: %227 = arith.constant 43 : i32
// CHECK-NEXT: %228 = arith.addi %14, %227 : i32
// CHECK-NEXT: %229 = arith.shli %228, %15 : i32
// CHECK-NEXT: %230 = arith.extui %229 : i32 to i64
// CHECK-NEXT: %231 = llvm.getelementptr %pd[%230] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_139, %231 : f32, !llvm.ptr<1>
// CHECK-NEXT: %232 = arith.constant 44 : i32
// CHECK-NEXT: %233 = arith.addi %14, %232 : i32
// CHECK-NEXT: %234 = arith.shli %233, %15 : i32
// CHECK-NEXT: %235 = arith.extui %234 : i32 to i64
// CHECK-NEXT: %236 = llvm.getelementptr %pd[%235] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_142, %236 : f32, !llvm.ptr<1>
// CHECK-NEXT: %237 = arith.constant 45 : i32
// CHECK-NEXT: %238 = arith.addi %14, %237 : i32
// CHECK-NEXT: %239 = arith.shli %238, %15 : i32
// CHECK-NEXT: %240 = arith.extui %239 : i32 to i64
// CHECK-NEXT: %241 = llvm.getelementptr %pd[%240] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_145, %241 : f32, !llvm.ptr<1>
// CHECK-NEXT: %242 = arith.constant 46 : i32
// CHECK-NEXT: %243 = arith.addi %14, %242 : i32
// CHECK-NEXT: %244 = arith.shli %243, %15 : i32
// CHECK-NEXT: %245 = arith.extui %244 : i32 to i64
// CHECK-NEXT: %246 = llvm.getelementptr %pd[%245] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_148, %246 : f32, !llvm.ptr<1>
// CHECK-NEXT: %247 = arith.constant 47 : i32
// CHECK-NEXT: %248 = arith.addi %14, %247 : i32
// CHECK-NEXT: %249 = arith.shli %248, %15 : i32
// CHECK-NEXT: %250 = arith.extui %249 : i32 to i64
// CHECK-NEXT: %251 = llvm.getelementptr %pd[%250] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_151, %251 : f32, !llvm.ptr<1>
// CHECK-NEXT: %252 = arith.constant 48 : i32
// CHECK-NEXT: %253 = arith.addi %14, %252 : i32
// CHECK-NEXT: %254 = arith.shli %253, %15 : i32
// CHECK-NEXT: %255 = arith.extui %254 : i32 to i64
// CHECK-NEXT: %256 = llvm.getelementptr %pd[%255] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_154, %256 : f32, !llvm.ptr<1>
// CHECK-NEXT: %257 = arith.constant 49 : i32
// CHECK-NEXT: %258 = arith.addi %14, %257 : i32
// CHECK-NEXT: %259 = arith.shli %258, %15 : i32
// CHECK-NEXT: %260 = arith.extui %259 : i32 to i64
// CHECK-NEXT: %261 = llvm.getelementptr %pd[%260] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_157, %261 : f32, !llvm.ptr<1>
// CHECK-NEXT: %262 = arith.constant 50 : i32
// CHECK-NEXT: %263 = arith.addi %14, %262 : i32
// CHECK-NEXT: %264 = arith.shli %263, %15 : i32
// CHECK-NEXT: %265 = arith.extui %264 : i32 to i64
// CHECK-NEXT: %266 = llvm.getelementptr %pd[%265] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_160, %266 : f32, !llvm.ptr<1>
// CHECK-NEXT: %267 = arith.constant 51 : i32
// CHECK-NEXT: %268 = arith.addi %14, %267 : i32
// CHECK-NEXT: %269 = arith.shli %268, %15 : i32
// CHECK-NEXT: %270 = arith.extui %269 : i32 to i64
// CHECK-NEXT: %271 = llvm.getelementptr %pd[%270] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_163, %271 : f32, !llvm.ptr<1>
// CHECK-NEXT: %272 = arith.constant 52 : i32
// CHECK-NEXT: %273 = arith.addi %14, %272 : i32
// CHECK-NEXT: %274 = arith.shli %273, %15 : i32
// CHECK-NEXT: %275 = arith.extui %274 : i32 to i64
// CHECK-NEXT: %276 = llvm.getelementptr %pd[%275] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_166, %276 : f32, !llvm.ptr<1>
// CHECK-NEXT: %277 = arith.constant 53 : i32
// CHECK-NEXT: %278 = arith.addi %14, %277 : i32
// CHECK-NEXT: %279 = arith.shli %278, %15 : i32
// CHECK-NEXT: %280 = arith.extui %279 : i32 to i64
// CHECK-NEXT: %281 = llvm.getelementptr %pd[%280] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_169, %281 : f32, !llvm.ptr<1>
// CHECK-NEXT: %282 = arith.constant 54 : i32
// CHECK-NEXT: %283 = arith.addi %14, %282 : i32
// CHECK-NEXT: %284 = arith.shli %283, %15 : i32
// CHECK-NEXT: %285 = arith.extui %284 : i32 to i64
// CHECK-NEXT: %286 = llvm.getelementptr %pd[%285] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_172, %286 : f32, !llvm.ptr<1>
// CHECK-NEXT: %287 = arith.constant 55 : i32
// CHECK-NEXT: %288 = arith.addi %14, %287 : i32
// CHECK-NEXT: %289 = arith.shli %288, %15 : i32
// CHECK-NEXT: %290 = arith.extui %289 : i32 to i64
// CHECK-NEXT: %291 = llvm.getelementptr %pd[%290] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_175, %291 : f32, !llvm.ptr<1>
// CHECK-NEXT: %292 = arith.constant 56 : i32
// CHECK-NEXT: %293 = arith.addi %14, %292 : i32
// CHECK-NEXT: %294 = arith.shli %293, %15 : i32
// CHECK-NEXT: %295 = arith.extui %294 : i32 to i64
// CHECK-NEXT: %296 = llvm.getelementptr %pd[%295] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_178, %296 : f32, !llvm.ptr<1>
// CHECK-NEXT: %297 = arith.constant 57 : i32
// CHECK-NEXT: %298 = arith.addi %14, %297 : i32
// CHECK-NEXT: %299 = arith.shli %298, %15 : i32
// CHECK-NEXT: %300 = arith.extui %299 : i32 to i64
// CHECK-NEXT: %301 = llvm.getelementptr %pd[%300] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_181, %301 : f32, !llvm.ptr<1>
// CHECK-NEXT: %302 = arith.constant 58 : i32
// CHECK-NEXT: %303 = arith.addi %14, %302 : i32
// CHECK-NEXT: %304 = arith.shli %303, %15 : i32
// CHECK-NEXT: %305 = arith.extui %304 : i32 to i64
// CHECK-NEXT: %306 = llvm.getelementptr %pd[%305] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_184, %306 : f32, !llvm.ptr<1>
// CHECK-NEXT: %307 = arith.constant 59 : i32
// CHECK-NEXT: %308 = arith.addi %14, %307 : i32
// CHECK-NEXT: %309 = arith.shli %308, %15 : i32
// CHECK-NEXT: %310 = arith.extui %309 : i32 to i64
// CHECK-NEXT: %311 = llvm.getelementptr %pd[%310] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_187, %311 : f32, !llvm.ptr<1>
// CHECK-NEXT: %312 = arith.constant 60 : i32
// CHECK-NEXT: %313 = arith.addi %14, %312 : i32
// CHECK-NEXT: %314 = arith.shli %313, %15 : i32
// CHECK-NEXT: %315 = arith.extui %314 : i32 to i64
// CHECK-NEXT: %316 = llvm.getelementptr %pd[%315] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_190, %316 : f32, !llvm.ptr<1>
// CHECK-NEXT: %317 = arith.constant 61 : i32
// CHECK-NEXT: %318 = arith.addi %14, %317 : i32
// CHECK-NEXT: %319 = arith.shli %318, %15 : i32
// CHECK-NEXT: %320 = arith.extui %319 : i32 to i64
// CHECK-NEXT: %321 = llvm.getelementptr %pd[%320] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_193, %321 : f32, !llvm.ptr<1>
// CHECK-NEXT: %322 = arith.constant 62 : i32
// CHECK-NEXT: %323 = arith.addi %14, %322 : i32
// CHECK-NEXT: %324 = arith.shli %323, %15 : i32
// CHECK-NEXT: %325 = arith.extui %324 : i32 to i64
// CHECK-NEXT: %326 = llvm.getelementptr %pd[%325] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_196, %326 : f32, !llvm.ptr<1>
// CHECK-NEXT: %327 = arith.constant 63 : i32
// CHECK-NEXT: %328 = arith.addi %14, %327 : i32
// CHECK-NEXT: %329 = arith.shli %328, %15 : i32
// CHECK-NEXT: %330 = arith.extui %329 : i32 to i64
// CHECK-NEXT: %331 = llvm.getelementptr %pd[%330] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: llvm.store %d_199, %331 : f32, !llvm.ptr<1>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: %332 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %333 = arith.constant 32 : i32
// CHECK-NEXT: %334 = arith.cmpi ult, %332, %333 : i32
// CHECK-NEXT: scf.if %334 {
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %335 = arith.constant 64 : i32
// CHECK-NEXT: nvvm.tcgen05.dealloc %t_4, %335 {group = #nvvm.cta_group<cta_1>} : !llvm.ptr<6>, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: %336 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %337 = arith.constant 32 : i32
// CHECK-NEXT: %338 = arith.cmpi ult, %336, %337 : i32
// CHECK-NEXT: scf.if %338 {
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_1>}
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }

// PTX:      .version 8.6
// PTX:      .target sm_100a
// PTX:      tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%rd16], 64;
// PTX:      tcgen05.mma.cta_group::1.kind::f16 [%r8], %rd9, %rd15, %r11, %p3;
// PTX:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd17];
// PTX:      mbarrier.try_wait.parity.shared::cta.b64 %p5, [%rd17], %r3, %r4;
// PTX:      tcgen05.fence::after_thread_sync;
// PTX:      tcgen05.ld.sync.aligned.32x32b.x64.b32 {%r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85}, [%r21];
// PTX:      tcgen05.wait::ld.sync.aligned;
// PTX:      tcgen05.fence::before_thread_sync;
// PTX:      tcgen05.fence::after_thread_sync;
// PTX:      tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r8, 64;
// PTX:      tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
