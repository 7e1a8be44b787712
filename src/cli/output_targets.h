// The files and folders a command will write, declared before anything runs and checked
// together, so that a command refuses (exit 2, every problem at once) what it could only fail
// at the end: a file output that is a directory; two outputs naming one file, by any spelling,
// link or hard link (two devices are not one file: each is written in turn), or both writing the
// process's own standard output ("-" or /dev/stdout) or error; a file output inside an output
// folder, where it could be one of the folder's files; a file output that is one of the
// command's inputs (it would be replaced, read or not), or lies inside an input folder (a run
// folder read whole, a folder of scenarios). Internal to the command-line tool.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/report/output_sink.h"

namespace fleetsim::cli {

class OutputTargets {
 public:
  // `dash_is_standard_output`: whether the command writes a file output named "-" to standard
  // output (import, import-fleet, compare) or to a file of that name (the others).
  explicit OutputTargets(bool dash_is_standard_output)
      : dash_is_standard_output_(dash_is_standard_output) {}

  // `option` names the output in messages ("--html"); an empty path is no output.
  void AddFile(std::string option, std::string path);
  void AddFolder(std::string option, std::string path);
  // An input file or folder the command reads; `what` names it in messages ("the baseline").
  // An empty path is none ("-" is a file of that name: no command reads standard input).
  void AddInput(std::string what, std::string path);

  // Each problem, a sentence naming the options and paths; empty when all can be tried.
  std::vector<std::string> Problems() const;

  // Prints each problem on `err` as "PREFIX: PROBLEM"; returns whether there were none.
  bool Check(const std::string& prefix, std::ostream& err) const;

  // Whether a file output is the process's standard output ("-" when it means that, or a name
  // of it), where a command's own summary must then not go.
  bool WritesStandardOutput() const;

 private:
  // What the output `path` writes: kStandardOutput or kStandardError for the process's own
  // streams ("-" when it means standard output), else the kind of file it is.
  StagedFile::Target TargetOf(const std::string& path) const;
  // Whether `path` names a file on the disk (not "-" meaning standard output).
  bool OnDisk(const std::string& path) const;

  bool dash_is_standard_output_;
  struct Target {
    std::string option;
    std::string path;
  };
  std::vector<Target> files_;
  std::vector<Target> folders_;
  std::vector<Target> inputs_;  // `option` holds what the input is
};

// Whether `path` names the process's standard output (/dev/stdout, /proc/self/fd/1: the file or
// pipe it goes to; not a device such as /dev/null or a terminal, which others write too).
bool IsStandardOutput(const std::string& path);

}  // namespace fleetsim::cli
