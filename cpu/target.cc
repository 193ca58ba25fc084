// The CPU target switch: which of the compiled Highway targets the kernels dispatch to. Highway
// picks the best one this CPU supports; set_cpu_target narrows that to one named target (an
// AVX-512 machine can then run and benchmark the AVX2 and SSE4 paths) by disabling every better
// one, Highway's own DisableTargets, so HWY_DYNAMIC_DISPATCH re-chooses on its next call.
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <stdexcept>
#include <string>

#include "cpu/targets.h"
#include "u8aug/u8aug.h"

namespace u8aug {
namespace {

std::mutex target_mutex;
std::string requested = "auto";

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

}  // namespace

int64_t cpu_targets_supported_mask() {
  // Read before any switch narrowed it: what this CPU supports of what was compiled.
  static const int64_t mask = hwy::SupportedTargets() & HWY_TARGETS;
  return mask;
}

std::string set_cpu_target(const std::string& name) {
  const std::lock_guard<std::mutex> lock(target_mutex);
  const int64_t supported = cpu_targets_supported_mask();
  const std::string wanted = upper(name);
  if (wanted.empty() || wanted == "AUTO") {
    hwy::DisableTargets(0);
    requested = "auto";
    return cpu::dispatched_target_name();
  }
  std::string names;
  for (int64_t t = supported; t != 0; t &= t - 1) {
    const int64_t bit = t & ~(t - 1);
    if (upper(hwy::TargetName(bit)) == wanted) {
      // Highway's targets are ordered best first by bit: disable every better one.
      hwy::DisableTargets(HWY_TARGETS & (bit - 1));
      const std::string chosen = cpu::dispatched_target_name();
      if (upper(chosen) != wanted) {
        hwy::DisableTargets(0);
        requested = "auto";
        throw std::invalid_argument("u8aug.set_cpu_target: could not dispatch to " + name + " (got " + chosen +
                                    "); back to the best target");
      }
      requested = hwy::TargetName(bit);
      return chosen;
    }
    names += std::string(names.empty() ? "" : ", ") + hwy::TargetName(bit);
  }
  throw std::invalid_argument("u8aug.set_cpu_target: '" + name +
                              "' is not a target this CPU supports among the compiled ones (" + names +
                              "), nor 'auto'");
}

std::string cpu_target_requested() {
  const std::lock_guard<std::mutex> lock(target_mutex);
  return requested;
}

}  // namespace u8aug
