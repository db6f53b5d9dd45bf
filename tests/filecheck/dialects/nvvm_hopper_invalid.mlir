// The Hopper data path of the nvvm dialect (upstream's op names and syntax) and named barriers: one invalid
// case per diagnostic, with its exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

// mbarrier arrivals

llvm.func @arrive_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mbarrier.arrive' op nvvm.mbarrier.arrive: the barrier must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.mbarrier.arrive %g : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @arrive_gpu_scope(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mbarrier.arrive' op nvvm.mbarrier.arrive: scope gpu; an mbarrier arrival releases at cta or cluster scope}}
  nvvm.mbarrier.arrive %s {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @expect_tx_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mbarrier.arrive.expect_tx' op nvvm.mbarrier.arrive.expect_tx: the barrier must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr}}
  nvvm.mbarrier.arrive.expect_tx %map, %i : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @expect_tx_count_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mbarrier.arrive.expect_tx' op nvvm.mbarrier.arrive.expect_tx: the transaction count must be i32 (bytes), not i64}}
  nvvm.mbarrier.arrive.expect_tx %s, %l : !llvm.ptr<3>, i64
  llvm.return
}

// -----

// TMA load: nvvm.cp.async.bulk.tensor.shared.cluster.global

llvm.func @load_dst_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: the destination must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %g, %map, %s, box[%i, %i] : !llvm.ptr<1>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @load_map_not_generic(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: the tensor map must be !llvm.ptr (its generic address: a kernel parameter by value), not !llvm.ptr<1>}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %g, %s, box[%i, %i] : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @load_rank(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: box[...] has 6 coordinates; a tensor map has 1 to 5 dimensions}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %s, %map, %s, box[%i, %i, %i, %i, %i, %i] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

// The custom syntax infers the coordinates' i32, the barrier's !llvm.ptr<3> and the mask's i16: other types are reached in generic form.
llvm.func @load_coordinate_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: box coordinate 1 must be i32, not i64}}
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%s, %map, %i, %l, %s) <{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}> : (!llvm.ptr<3>, !llvm.ptr, i32, i64, !llvm.ptr<3>) -> ()
  llvm.return
}

// -----

llvm.func @load_barrier_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: the barrier must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%s, %map, %i, %g) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (!llvm.ptr<3>, !llvm.ptr, i32, !llvm.ptr<1>) -> ()
  llvm.return
}

// -----

llvm.func @load_mask_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op nvvm.cp.async.bulk.tensor.shared.cluster.global: multicast_mask must be i16 (a bit per CTA of the cluster), not i32}}
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%s, %map, %i, %s, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (!llvm.ptr<3>, !llvm.ptr, i32, !llvm.ptr<3>, i32) -> ()
  llvm.return
}

// -----

// TMA store: nvvm.cp.async.bulk.tensor.global.shared.cta

llvm.func @store_src_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.global.shared.cta' op nvvm.cp.async.bulk.tensor.global.shared.cta: the source must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %g, box[%i] : !llvm.ptr, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @store_map_not_generic(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.global.shared.cta' op nvvm.cp.async.bulk.tensor.global.shared.cta: the tensor map must be !llvm.ptr (its generic address: a kernel parameter by value), not !llvm.ptr<3>}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %s, %s, box[%i] : !llvm.ptr<3>, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @store_rank(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.global.shared.cta' op nvvm.cp.async.bulk.tensor.global.shared.cta: box[...] has 0 coordinates; a tensor map has 1 to 5 dimensions}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %s, box[] : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @store_coordinate_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.global.shared.cta' op nvvm.cp.async.bulk.tensor.global.shared.cta: box coordinate 0 must be i32, not i64}}
  "nvvm.cp.async.bulk.tensor.global.shared.cta"(%map, %s, %l) : (!llvm.ptr, !llvm.ptr<3>, i64) -> ()
  llvm.return
}

// -----

// bulk groups

llvm.func @wait_group_range(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.wait_group' op nvvm.cp.async.bulk.wait_group: 64 pending groups is not legal; N is in [0, 63]}}
  nvvm.cp.async.bulk.wait_group 64 {read}
  llvm.return
}

// -----

// A count no i32 holds: the same rule, reported while parsing.
llvm.func @wait_group_beyond_i32(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{nvvm.cp.async.bulk.wait_group: 99999999999 pending groups is not legal; N is in [0, 63]}}
  nvvm.cp.async.bulk.wait_group 99999999999
  llvm.return
}

// -----

// prefetch tensormap

llvm.func @prefetch_not_generic(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.prefetch' op nvvm.prefetch: the tensor map must be !llvm.ptr (its generic address: a kernel parameter by value), not !llvm.ptr<3>}}
  nvvm.prefetch tensormap, %s : !llvm.ptr<3>
  llvm.return
}

// -----

// setmaxregister

llvm.func @setmaxregister_action(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{nvvm.setmaxregister: action 'grow' is not one of increase, decrease}}
  nvvm.setmaxregister grow 232
  llvm.return
}

// -----

llvm.func @setmaxregister_action_generic(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.setmaxregister' op nvvm.setmaxregister: action "grow" is not one of increase, decrease}}
  "nvvm.setmaxregister"() <{regCount = 232 : i32, action = "grow"}> : () -> ()
  llvm.return
}

// -----

llvm.func @setmaxregister_range(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.setmaxregister' op nvvm.setmaxregister: 16 registers is not legal; the count is a multiple of 8 in [24, 256]}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

llvm.func @setmaxregister_multiple(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.setmaxregister' op nvvm.setmaxregister: 100 registers is not legal; the count is a multiple of 8 in [24, 256]}}
  nvvm.setmaxregister increase 100
  llvm.return
}

// -----

// A count no i32 holds: the same rule, reported while parsing.
llvm.func @setmaxregister_beyond_i32(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{nvvm.setmaxregister: 99999999999 registers is not legal; the count is a multiple of 8 in [24, 256]}}
  nvvm.setmaxregister increase 99999999999
  llvm.return
}

// -----

// elect.sync

llvm.func @elect_result(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.elect.sync' op nvvm.elect.sync: the result must be i1 (true in the elected lane), not i32}}
  %p = nvvm.elect.sync -> i32
  llvm.return
}

// -----

// griddepcontrol (programmatic dependent launch) on a chip before sm_90

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @griddepcontrol_on_sm80() {
    // expected-error@+1 {{'nvvm.griddepcontrol.wait' op nvvm.griddepcontrol.wait: programmatic dependent launch (griddepcontrol) needs sm_90 or later; the module targets sm_80}}
    nvvm.griddepcontrol.wait
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_89>} {
  llvm.func @launch_dependents_on_sm89() {
    // expected-error@+1 {{'nvvm.griddepcontrol.launch.dependents' op nvvm.griddepcontrol.launch.dependents: programmatic dependent launch (griddepcontrol) needs sm_90 or later; the module targets sm_89}}
    nvvm.griddepcontrol.launch.dependents
    llvm.return
  }
}

// -----

// stmatrix

llvm.func @stmatrix_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.stmatrix' op nvvm.stmatrix: the address must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.stmatrix %g, %i {layout = #nvvm.mma_layout<row>} : !llvm.ptr<1>, i32
  llvm.return
}

// -----

llvm.func @stmatrix_count(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.stmatrix' op nvvm.stmatrix: 3 source registers; stmatrix stores 1, 2 or 4 matrices (.x1, .x2, .x4), one register each}}
  nvvm.stmatrix %s, %i, %i, %i {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32
  llvm.return
}

// -----

llvm.func @stmatrix_register_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.stmatrix' op nvvm.stmatrix: source register 1 must be i32 (two b16 elements), not i64}}
  nvvm.stmatrix %s, %i, %l {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i64
  llvm.return
}

// -----

llvm.func @stmatrix_layout(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.stmatrix' op nvvm.stmatrix: layout must be #nvvm.mma_layout<row> or #nvvm.mma_layout<col>, not "row"}}
  nvvm.stmatrix %s, %i {layout = "row"} : !llvm.ptr<3>, i32
  llvm.return
}

// -----

// nvvm.barrier id = %id number_of_threads = %n (named barriers)

llvm.func @barrier_threads_without_id(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: number_of_threads without an id; a named barrier is `nvvm.barrier id = %id number_of_threads = %n`}}
  nvvm.barrier number_of_threads = %i
  llvm.return
}

// -----

llvm.func @barrier_id_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: the id must be i32, not i64}}
  "nvvm.barrier"(%l) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i64) -> ()
  llvm.return
}

// -----

llvm.func @barrier_threads_type(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: number_of_threads must be i32, not i64}}
  "nvvm.barrier"(%i, %l) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i64) -> ()
  llvm.return
}

// -----

llvm.func @barrier_id_range(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  %id = arith.constant 16 : i32
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: id 16 is not legal; a CTA has barriers 0 to 15}}
  nvvm.barrier id = %id
  llvm.return
}

// -----

llvm.func @barrier_threads(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  %n = arith.constant 100 : i32
  // expected-error@+1 {{'nvvm.barrier' op nvvm.barrier: number_of_threads 100 is not legal; it is a multiple of 32 (whole warps) in [32, 1024]}}
  nvvm.barrier id = %i number_of_threads = %n
  llvm.return
}

// -----

llvm.func @mapa_global(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mapa' op nvvm.mapa: the address must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  %r = "nvvm.mapa"(%g, %i) : (!llvm.ptr<1>, i32) -> !llvm.ptr<7>
  llvm.return
}

// -----

llvm.func @mapa_rank(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mapa' op nvvm.mapa: the CTA rank must be i32, not i64}}
  %r = "nvvm.mapa"(%s, %l) : (!llvm.ptr<3>, i64) -> !llvm.ptr<7>
  llvm.return
}

// -----

llvm.func @mapa_result(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.mapa' op nvvm.mapa: the result must be !llvm.ptr<7> (a shared::cluster address), not !llvm.ptr<3>}}
  %r = "nvvm.mapa"(%s, %i) : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>
  llvm.return
}

// -----

// expected-error@+1 {{nvvm.cluster_dim = array<i32: 3, 3> asks for 9 CTAs; a portable cluster has at most 8}}
llvm.func @too_big_a_cluster() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 3, 3>} {
  llvm.return
}

// -----

// nvvm.barrier.arrive id = %id number_of_threads = %n (bar.arrive)

llvm.func @barrier_arrive_id_range(%i: i32) {
  %id = arith.constant 16 : i32
  %n = arith.constant 256 : i32
  // expected-error@+1 {{'nvvm.barrier.arrive' op nvvm.barrier.arrive: id 16 is not legal; a CTA has barriers 0 to 15}}
  nvvm.barrier.arrive id = %id number_of_threads = %n
  llvm.return
}

// -----

llvm.func @barrier_arrive_threads(%i: i32) {
  %id = arith.constant 3 : i32
  %n = arith.constant 100 : i32
  // expected-error@+1 {{'nvvm.barrier.arrive' op nvvm.barrier.arrive: number_of_threads 100 is not legal; it is a multiple of 32 (whole warps) in [32, 1024]}}
  nvvm.barrier.arrive id = %id number_of_threads = %n
  llvm.return
}

// -----

llvm.func @barrier_arrive_threads_type(%l: i64) {
  // expected-error@+1 {{'nvvm.barrier.arrive' op nvvm.barrier.arrive: number_of_threads must be i32, not i64}}
  "nvvm.barrier.arrive"(%l) <{operandSegmentSizes = array<i32: 0, 1>}> : (i64) -> ()
  llvm.return
}

// -----

// bulk copies without a tensor map

llvm.func @bulk_copy_src_not_global(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.shared.cluster.global' op nvvm.cp.async.bulk.shared.cluster.global: the source must be !llvm.ptr<1> (a global-memory pointer), not !llvm.ptr<3>}}
  nvvm.cp.async.bulk.shared.cluster.global %s, %s, %s, %i : !llvm.ptr<3>, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @bulk_copy_dst_not_shared(%map: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %i: i32, %l: i64, %h: i16) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.shared.cluster.global' op nvvm.cp.async.bulk.shared.cluster.global: the destination must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
  nvvm.cp.async.bulk.shared.cluster.global %g, %g, %s, %i : !llvm.ptr<1>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @st_async_local(%s: !llvm.ptr<3>, %p: !llvm.ptr<7>, %i: i32) {
  // expected-error@+1 {{'nvvm.st.async' op nvvm.st.async: the address must be !llvm.ptr<7> (a shared::cluster address: nvvm.mapa's), not !llvm.ptr<3>}}
  nvvm.st.async %s, %p, %i, %i, %i, %i : !llvm.ptr<3>, !llvm.ptr<7>, i32, i32, i32, i32
  llvm.return
}

// -----

llvm.func @st_async_words(%p: !llvm.ptr<7>, %i: i32) {
  // expected-error@+1 {{'nvvm.st.async' op nvvm.st.async: 2 words; the store is a vector of four 32-bit words}}
  nvvm.st.async %p, %p, %i, %i : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32
  llvm.return
}

// -----

llvm.func @wait_scope(%s: !llvm.ptr<3>, %i: i32) {
  // expected-error@+1 {{'nvvm.mbarrier.try_wait.parity' op nvvm.mbarrier.try_wait.parity: scope gpu; a barrier wait acquires at cta or cluster scope}}
  nvvm.mbarrier.try_wait.parity %s, %i, %i {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3>, i32, i32
  llvm.return
}
