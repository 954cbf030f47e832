// RUN: xpu-opt %s -split-input-file -verify-diagnostics
// What Triton's verifiers reject in warp_specialize, map_elementwise and
// local_atomic_scatter_rmw, rejected here at the same op in Triton's words
// (cases written for this project from TritonGPU/Triton invalid.mlir's constructs).

tt.func @holder_is_empty() {
  // expected-error @below {{'ttg.warp_specialize' op expected to find only a `ttg.warp_specialize.partitions` op inside its second region}}
  "ttg.warp_specialize"() <{partitionNumWarps = array<i32>}> ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "arith.constant"() <{value = 0 : i32}> : () -> i32
  }) : () -> ()
  tt.return
}

// -----

tt.func @count_mismatch() {
  // expected-error @below {{'ttg.warp_specialize' op has 0 partitions but `partitionNumWarps` has 2 elements}}
  "ttg.warp_specialize"() <{partitionNumWarps = array<i32: 4, 4>}> ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() : () -> ()
  }) : () -> ()
  tt.return
}

// -----

tt.func @not_power_of_two() {
  // expected-error @below {{'ttg.warp_specialize' op partition #1 number of warps (6) must be a power of 2}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    ttg.warp_return
  }
  partition1() num_warps(6) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @start_ids(%a: i32) {
  // expected-error @below {{'ttg.warp_specialize' op has 2 warp group start IDs but expected 1}}
  ttg.warp_specialize(%a) attributes {warpGroupStartIds = array<i32: 4, 8>}
  default {
    ttg.warp_yield
  }
  partition0(%x: i32) num_warps(4) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @nested() {
  ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// -----

tt.func @partition_arity(%a: i32, %b: i64) {
  ttg.warp_specialize(%a, %b)
  default {
    ttg.warp_yield
  }
  // expected-error @below {{'ttg.warp_specialize.partitions' op partition region #0 has 1 arguments but expected 2}}
  partition0(%x: i32) num_warps(4) {
    ttg.warp_return
  } : (i32, i64) -> ()
  tt.return
}

// -----

tt.func @partition_types(%a: i32) {
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  // expected-error @below {{'ttg.warp_specialize.partitions' op partition region #0 argument #0 has type 'f32' but corresponding capture has type 'i32'}}
  partition0(%x: f32) num_warps(4) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @map_arity() {
  %c = arith.constant dense<0> : tensor<64xi32>
  // expected-error @below {{region has wrong number of arguments}}
  %0 = "tt.map_elementwise"(%c) <{pack = 2 : i32}> ({
  ^bb0(%x: i32):
    tt.map_elementwise.return %x : i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @map_types() {
  %c = arith.constant dense<0> : tensor<64xi32>
  // expected-error @below {{argument types did not match}}
  %0 = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%x: f32):
    tt.map_elementwise.return %x : f32
  }) : (tensor<64xi32>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @map_return() {
  %c = arith.constant dense<0> : tensor<64xi32>
  %0 = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%x: i32):
    // expected-error @below {{region return does not match map_elementwise result}}
    tt.map_elementwise.return %x : i32
  }) : (tensor<64xi32>) -> tensor<64xi64>
  tt.return
}

// -----

tt.func @map_pack() {
  %c = arith.constant dense<0> : tensor<64xi32>
  // expected-error @below {{'tt.map_elementwise' op Pack must be a power of 2}}
  %0 = "tt.map_elementwise"(%c) <{pack = 3 : i32}> ({
  ^bb0(%x: i32, %y: i32, %z: i32):
    tt.map_elementwise.return %x, %y, %z : i32, i32, i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @rmw_immutable(%m: !ttg.memdesc<128xi32, #shared, #smem>, %i: tensor<128xi32, #blocked>) {
    // expected-error @below {{'ttg.local_atomic_scatter_rmw' op Cannot store into immutable memory}}
    %0 = ttg.local_atomic_scatter_rmw add, %m[%i], %i {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @rmw_shapes(%m: !ttg.memdesc<128xi32, #shared, #smem, mutable>, %i: tensor<64xi32, #blocked>, %v: tensor<128xi32, #blocked>) {
    // expected-error @below {{values shape must match indices shape}}
    %0 = ttg.local_atomic_scatter_rmw add, %m[%i], %v {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<64xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}
