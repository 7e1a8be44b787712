// The trace formats, one function per format, each defined in its own reader file and listed
// by formats.cc. Internal to the trace module.
#pragma once

#include "fleetsim/trace/formats.h"

namespace fleetsim {

TraceFormat JsonlFormat();         // native_jsonl.cc
TraceFormat NativeCsvFormat();     // native_csv.cc
TraceFormat AlibabaOpenbFormat();  // alibaba_openb.cc
TraceFormat PhillyFormat();        // philly.cc
TraceFormat ItpFormat();           // ms_itp.cc
TraceFormat SwfFormat();           // swf.cc
TraceFormat PolluxFormat();        // pollux.cc
TraceFormat SacctFormat();         // sacct.cc

}  // namespace fleetsim
