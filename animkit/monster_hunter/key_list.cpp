#include "animkit/monster_hunter/key_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace animkit::monster_hunter {

namespace {
// Uninitialised bytes for `count` keys: the callers copy or fill every key they hand out
// (Keyframe is an implicit-lifetime aggregate, so the copy creates the keys).
std::shared_ptr<std::byte[]> allocate(size_t count) {
  return std::make_shared_for_overwrite<std::byte[]>(count * sizeof(Keyframe));
}
}  // namespace

KeyList::KeyList(std::initializer_list<Keyframe> keys) {
  own(keys.size());
  if (keys.size() != 0) std::memcpy(data_, keys.begin(), keys.size() * sizeof(Keyframe));
  size_ = keys.size();
}

KeyList::KeyList(const std::vector<Keyframe>& keys) {
  own(keys.size());
  if (!keys.empty()) std::memcpy(data_, keys.data(), keys.size() * sizeof(Keyframe));
  size_ = keys.size();
}

KeyList& KeyList::operator=(KeyList&& other) noexcept {
  if (this != &other) {
    block_ = std::move(other.block_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void KeyList::own(size_t capacity) {
  capacity = std::max(capacity, size_);
  // use_count() == 1: no other list shares the block, so nothing can copy it concurrently.
  if (block_ && block_.use_count() == 1 && capacity <= capacity_) return;
  if (capacity == 0) {
    block_.reset();
    data_ = nullptr;
    capacity_ = 0;
    return;
  }
  std::shared_ptr<std::byte[]> fresh = allocate(capacity);
  auto* keys = reinterpret_cast<Keyframe*>(fresh.get());
  if (size_ != 0) std::memcpy(keys, data_, size_ * sizeof(Keyframe));
  block_ = std::move(fresh);
  data_ = keys;
  capacity_ = capacity;
}

void KeyList::push_back(const Keyframe& key) {
  const Keyframe copy = key;  // `key` may be one of this list's keys
  own(size_ < capacity_ ? capacity_ : std::max<size_t>(4, 2 * size_));
  data_[size_++] = copy;
}

void KeyList::resize(size_t count) {
  if (count > size_) {
    own(count);
    std::fill(data_ + size_, data_ + count, Keyframe{});
  }
  size_ = count;
  if (count == 0) clear();
}

void KeyList::clear() {
  block_.reset();
  data_ = nullptr;
  size_ = capacity_ = 0;
}

bool operator==(const KeyList& a, const KeyList& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

bool operator==(const KeyList& a, const std::vector<Keyframe>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

KeyBlock::KeyBlock(size_t max_keys) : capacity_(max_keys) {
  if (max_keys != 0) block_ = allocate(max_keys);
}

void KeyBlock::overflow(const Reader& r, size_t at, uint32_t count) const {
  r.fail_at(at, fmt::format("{} keys, only {} left in the keys' block", count,
                            capacity_ - used_));
}

}  // namespace animkit::monster_hunter
