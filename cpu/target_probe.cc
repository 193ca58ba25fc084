// Which target dynamic dispatch runs now: a function compiled for every target, whose dispatched
// call names its own, as every kernel's dispatched call would pick it (build_info, the switch).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/target_probe.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/targets.h"

HWY_BEFORE_NAMESPACE();
namespace u8aug {
namespace cpu {
namespace HWY_NAMESPACE {

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace cpu
}  // namespace u8aug
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace u8aug {
namespace cpu {

HWY_EXPORT(TargetName);

const char* dispatched_target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace cpu
}  // namespace u8aug
#endif  // HWY_ONCE
