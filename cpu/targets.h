// What the CPU dispatch runs and may run, for build_info.cc and target.cc (not part of the API).
#pragma once

#include <cstdint>
#include <string>

namespace u8aug {
namespace cpu {
const char* dispatched_target_name();  // cpu/target_probe.cc: the target dynamic dispatch runs now
}  // namespace cpu

int64_t cpu_targets_supported_mask();  // cpu/target.cc: this CPU's, before any switch narrowed it
std::string cpu_target_requested();    // cpu/target.cc: set_cpu_target's last name, or "auto"
}  // namespace u8aug
