#include "animkit/shadow_of_war/tracker.h"

#include <cmath>

namespace animkit::shadow_of_war {

void advance(Tracker& t, float dt) {
  if (!(t.flags & kTrackerAdvance) || t.rate == 0.f) return;
  t.time += dt * t.rate;
  const float d = t.clip ? t.clip->duration : 0.f;
  if (!(d > 0.f)) {
    t.time = 0;
    return;
  }
  if (t.flags & kTrackerLoop) {
    if (t.time >= d || t.time < 0.f) {
      t.time = std::fmod(t.time, d);
      if (t.time < 0.f) t.time += d;
    }
  } else {
    t.time = t.time < 0.f ? 0.f : (t.time > d ? d : t.time);
  }
}

}  // namespace animkit::shadow_of_war
