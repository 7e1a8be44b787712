// Status: the one error type of the fleetsim libraries (leveldb's Status is the model). A
// function that can fail returns a Status, and its result, if any, through an out-parameter or
// a field beside it. An OK status carries nothing; any other carries a code saying what kind of
// failure it is and a message a user can act on, already located ("path:line: expected ...,
// found ..."; "GPU 7 is busy"). Value type; thread-compatible; cheap to copy when OK.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace fleetsim {

enum class StatusCode {
  kOk,
  kInvalidInput,     // an input (a file's content, an option, a name) is wrong
  kIoError,          // a file could not be read or written
  kRefused,          // a request cannot be granted in the current state (a GPU is busy)
  kIllegalDecision,  // a policy returned a decision the engine cannot carry out
  kAlreadyExists,    // a name that had to be new is taken (a file, a link, a folder)
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK

  static Status Ok() { return Status(); }
  static Status InvalidInput(std::string message);
  static Status IoError(std::string message);
  static Status Refused(std::string message);
  static Status IllegalDecision(std::string message);
  static Status AlreadyExists(std::string message);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // The message; "" when OK.
  const std::string& message() const { return message_; }

  // The same failure with "<context>: " before its message; OK stays OK.
  Status Within(std::string_view context) const;

  // "OK", or the code's name and the message: "invalid input: x.json:3: ...".
  std::string ToString() const;

  friend bool operator==(const Status&, const Status&) = default;

 private:
  Status(StatusCode code, std::string message);

  StatusCode code_ = StatusCode::kOk;
  std::string message_{};
};

// Writes ToString() (for test failures and logs; users are shown message()).
std::ostream& operator<<(std::ostream& out, const Status& status);

// "ok", "invalid input", "I/O error", "refused", "illegal decision", "already exists".
std::string_view StatusCodeName(StatusCode code);

}  // namespace fleetsim
