// What a first run gets wrong, and what it is told: our passes' options in -list-passes,
// a bad option value named with the type it needs, a cut-off file said to end early.
// RUN: xpu-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: xpu-opt %s -tritonintelgpu-remove-layout-conversions=max-backward-remat-iterations=0x2 | FileCheck %s
// RUN: not xpu-opt %s -tritonintelgpu-remove-layout-conversions=max-backward-remat-iterations=abc 2>&1 | FileCheck %s --check-prefix=BADINT
// RUN: not xpu-opt %s -pass-pipeline='builtin.module(triton-raise-block-pointer{dot-only=maybe})' 2>&1 | FileCheck %s --check-prefix=BADBOOL
// The whole file parses; cut after its 35th line (inside the aliases after the module) or right after the module, it ended early.
// RUN: xpu-opt %s -mlir-print-debuginfo | FileCheck %s --check-prefix=WHOLE
// RUN: head -n 35 %s | not xpu-opt - 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: head -n 34 %s | not xpu-opt - 2>&1 | FileCheck %s --check-prefix=CUT-BEFORE
// A name that is simply not defined (not past the last definition) keeps the parser's message,
// as does an input that defines no location alias at all (errors/malformed.mlir).
// RUN: sed 's/loc(#loc1)/loc(#loc_typo)/' %s | not xpu-opt - 2>&1 | FileCheck %s --check-prefix=TYPO

// LIST: --triton-raise-block-pointer {{ +}}ours: {ignore-masks=false version=true dot-only=false block-io-only=false skip-transposed-reuse=true wide-positions=false num-warps=0 grf-mode= never-worse-than-native=false max-work-per-op=50}
// LIST: --tritonintelgpu-legalize-block-io-encoding {{ +}}ours: {fold-register-permutations=true max-work-per-op=50}
// LIST: --tritonintelgpu-materialize-block-pointer {{ +}}ours: {max-work-per-op=50} tag loads
// LIST: --tritonintelgpu-remove-layout-conversions {{ +}}ours: {max-backward-remat-iterations=4 max-work-per-op=100 never-worse-than-native=false check-incremental=false in-place=true}
// LIST: --tritonintelgpu-rewrite-tensor-pointer {{ +}}ours: {guard=true max-work-per-op=50}
// LIST: --tritonintelgpu-pipeline {{ +}}native: {num-stages=3 support-regular-ptr=false}
// CHECK: tt.func @f
// BADINT: xpu-opt: error: pass 'tritonintelgpu-remove-layout-conversions': option 'max-backward-remat-iterations=abc': expected an integer, got 'abc'
// BADBOOL: xpu-opt: error: pass 'triton-raise-block-pointer': option 'dot-only=maybe': expected true or false, got 'maybe'
// WHOLE: loc("k.py":3:4)
// CUT: <stdin>:35:24: error: the input ended early: location alias '#loc2' is used but never defined (the last location alias it defines is '#loc1'; MLIR prints them after the module)
// CUT: <stdin>:32:19: note: '#loc2' used here
// CUT-BEFORE: <stdin>:34:12: error: the input ended early: location alias '#loc2' is used but never defined (the last location alias it defines is '#loc';
// TYPO: error: undefined symbol alias '#loc_typo'
#loc = loc("k.py":1:0)
module {
  tt.func @f() {
    tt.return loc(#loc2)
  } loc(#loc1)
} loc(#loc)
#loc1 = loc("k.py":2:0)
#loc2 = loc("k.py":3:4)
