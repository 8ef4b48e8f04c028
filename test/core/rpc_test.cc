// The JSON-RPC messages between coordinator and worker: every params and result struct
// survives the trip, the wire keeps its names and encodings, unknown names and malformed
// lines are protocol errors, and framing works on any chunks.
#include "core/rpc.h"

// The plain messages keep JSON out of the engine's hot path.
#if defined(INCLUDE_NLOHMANN_JSON_HPP_) || defined(INCLUDE_NLOHMANN_JSON_FWD_HPP_)
#error "core/rpc.h pulls in nlohmann/json"
#endif

#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/rpc_json.h"

namespace cfuzz::core::rpc {
namespace {

using nlohmann::json;

// Through a JSON value and through the text of a request line, as on the pipe.
template <class T>
T round_trip(const T& v) {
  json j = v;
  const std::string line = encode_request(Request{7, Method::Fuzz, j});
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line, newline-terminated";
  const Request back = decode_request(std::string_view(line).substr(0, line.size() - 1));
  EXPECT_EQ(back.id, 7u);
  EXPECT_EQ(back.method, Method::Fuzz);
  return back.params.get<T>();
}

TEST(Rpc, PingResultRoundTrips) {
  PingResult v;
  v.protocol = 3;
  v.pid = 424242;
  v.test = "FuzzParse\nwith \"quotes\" and ünïcode";
  v.types = {"[]uint8", "string", "int64"};
  v.counters = 1ULL << 40;
  const PingResult b = round_trip(v);
  EXPECT_EQ(b.protocol, 3);
  EXPECT_EQ(b.pid, 424242);
  EXPECT_EQ(b.test, v.test);
  EXPECT_EQ(b.types, v.types);
  EXPECT_EQ(b.counters, 1ULL << 40);
  // Empty params are an object, as JSON-RPC wants.
  EXPECT_TRUE(json(PingParams{}).is_object());
  EXPECT_TRUE(json(ExecParams{}).is_object());
  round_trip(PingParams{});
  round_trip(ExecParams{});
}

TEST(Rpc, FuzzParamsAndResultRoundTrip) {
  FuzzParams p;
  p.seed = 0xfedcba9876543210ULL;  // above INT64_MAX: must stay unsigned
  p.limit = 1000;
  p.deadline_ms = 12345;
  p.max_len = 4096;
  p.paranoid = true;
  p.input_to_state = 64;
  p.input_to_state_from = 17;
  p.only_ascii = true;
  p.dictionary = {"GET ", std::string("\0\xff\n", 3), ""};
  const FuzzParams bp = round_trip(p);
  EXPECT_EQ(bp.seed, p.seed);
  EXPECT_EQ(bp.limit, 1000u);
  EXPECT_EQ(bp.deadline_ms, 12345u);
  EXPECT_EQ(bp.max_len, 4096u);
  EXPECT_TRUE(bp.paranoid);
  EXPECT_EQ(bp.input_to_state, 64u);
  EXPECT_EQ(bp.input_to_state_from, 17u);
  EXPECT_EQ(bp.dictionary, p.dictionary);
  EXPECT_TRUE(bp.only_ascii);

  FuzzResult r;
  r.status = Status::Interesting;
  r.execs = 99;
  r.duration_ns = ~0ULL;
  r.new_bits = 17;
  r.exec_ns = 5;
  r.new_words = {"magic", std::string(1, '\0')};
  r.useful_words = {
      "\x7f"
      "ELF"};
  r.input_to_state_next = 40;
  r.input_to_state_done = true;
  r.input_to_state_execs = 61;
  const FuzzResult br = round_trip(r);
  EXPECT_EQ(br.status, Status::Interesting);
  EXPECT_EQ(br.execs, 99u);
  EXPECT_EQ(br.duration_ns, ~0ULL);
  EXPECT_EQ(br.new_bits, 17u);
  EXPECT_EQ(br.exec_ns, 5u);
  EXPECT_EQ(br.new_words, r.new_words);
  EXPECT_EQ(br.useful_words, r.useful_words);
  EXPECT_EQ(br.input_to_state_next, 40u);
  EXPECT_TRUE(br.input_to_state_done);
  EXPECT_EQ(br.input_to_state_execs, 61u);
}

TEST(Rpc, DescribeReplyRoundTripsAndATestWithoutAFunctionHasNoTypes) {
  DescribeReply v;
  v.protocol = kProtocolVersion;
  v.counters = 1234;
  v.modules = 2;
  v.srcdir = "/src/project";
  v.tests.push_back(
      DescribedTest{"FuzzA", "", {"[]byte", "int64"}, {"go test fuzz v1\n[]byte(\"x\")\nint64(1)\n", ""}, {}});
  v.tests.push_back(DescribedTest{"FuzzBroken", "f.fuzz was never called", {}, {}, {}});
  v.tests.push_back(DescribedTest{"FuzzTyped", "", {"[]byte", "int64"}, {}, {"[]int32", ""}});
  json j = v;
  EXPECT_FALSE(j["tests"][1].contains("types"));
  EXPECT_FALSE(j["tests"][0].contains("shapes")) << "a test of Go's types only has no shapes";
  DescribeReply b = j.get<DescribeReply>();
  EXPECT_EQ(b.protocol, kProtocolVersion);
  EXPECT_EQ(b.counters, 1234u);
  EXPECT_EQ(b.modules, 2u);
  EXPECT_EQ(b.srcdir, "/src/project");
  ASSERT_EQ(b.tests.size(), 3u);
  EXPECT_EQ(b.tests[2].shapes, v.tests[2].shapes);
  EXPECT_EQ(b.tests[0].types, v.tests[0].types);
  EXPECT_EQ(b.tests[0].seeds, v.tests[0].seeds);
  EXPECT_EQ(b.tests[1].error, "f.fuzz was never called");
}

TEST(Rpc, ADescribeAnswerIsToldFromNoAnswerAndFromAnotherVersion) {
  EXPECT_FALSE(decode_describe_reply("INFO: Seed: 1234\n").has_value());
  EXPECT_FALSE(decode_describe_reply("[1,2]").has_value());
  EXPECT_FALSE(decode_describe_reply(R"({"protocol":1})").has_value()) << "no tests: not an answer";
  // Another version: only its protocol is read, whatever the rest holds.
  const auto other = decode_describe_reply(R"({"protocol":9,"tests":"a format of the future"})");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->protocol, 9);
  const auto none = decode_describe_reply(R"({"tests":[]})");
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->protocol, 0);
  EXPECT_THROW(decode_describe_reply(R"({"protocol":1,"tests":[{"name":7}]})"), json::exception);
  const auto ok = decode_describe_reply(
      R"({"counters":299,"modules":1,"protocol":1,"srcdir":"/tmp/escape","tests":[{"name":"FuzzEscape","seeds":[""],"types":["string"]}]})");
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->counters, 299u);
  ASSERT_EQ(ok->tests.size(), 1u);
  EXPECT_EQ(ok->tests[0].types, std::vector<std::string>{"string"});
}

TEST(Rpc, HexCodingRoundTripsEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string hex = to_hex(all);
  EXPECT_EQ(hex.size(), 512u);
  EXPECT_EQ(hex.substr(0, 8), "00010203");
  EXPECT_EQ(hex.substr(504), "fcfdfeff");
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(from_hex(hex), all);
  EXPECT_EQ(from_hex("DEADbeef"), "\xde\xad\xbe\xef");
  EXPECT_EQ(to_hex(""), "");
  EXPECT_EQ(from_hex(""), "");
}

TEST(Rpc, MalformedHexIsAProtocolError) {
  for (const char* bad : {"a", "abc", "0g", "g0", "zz", "0x12", " 1", "12 ", "\xc3\xa9"}) {
    EXPECT_THROW(from_hex(bad), ProtocolError) << bad;
  }
}

TEST(Rpc, ExecResultRoundTrips) {
  ExecResult r;
  r.status = Status::Skipped;
  r.duration_ns = 77;
  r.new_bits = 3;
  const ExecResult b = round_trip(r);
  EXPECT_EQ(b.status, Status::Skipped);
  EXPECT_EQ(b.duration_ns, 77u);
  EXPECT_EQ(b.new_bits, 3u);
}

TEST(Rpc, MinimizeParamsRoundTripWithAndWithoutAResumeVerdict) {
  MinimizeParams p;
  p.mode = MinimizeMode::Failure;
  p.limit = 50;
  p.deadline_ms = 60000;
  p.state = {1, 2, 3, 4, 0xffffffffffffffffULL, 6};
  p.target = FailureSignature{3, -11, "SIGSEGV", "target+0x1234 target+0x99"};
  for (std::optional<bool> verdict : {std::optional<bool>{}, std::optional<bool>{true}, std::optional<bool>{false}}) {
    p.resume_verdict = verdict;
    const MinimizeParams b = round_trip(p);
    EXPECT_EQ(b.mode, MinimizeMode::Failure);
    EXPECT_EQ(b.limit, 50u);
    EXPECT_EQ(b.deadline_ms, 60000u);
    EXPECT_EQ(b.state, p.state);
    EXPECT_EQ(b.resume_verdict, verdict);
    EXPECT_EQ(b.target.kind, 3u);
    EXPECT_EQ(b.target.exit_code, -11);
    EXPECT_EQ(b.target.detail, "SIGSEGV");
    EXPECT_EQ(b.target.site, "target+0x1234 target+0x99");
  }
}

TEST(Rpc, MinimizeResultRoundTrips) {
  MinimizeResult r;
  r.status = Status::Budget;
  r.execs = 12;
  r.duration_ns = 34;
  r.improved = true;
  const MinimizeResult b = round_trip(r);
  EXPECT_EQ(b.status, Status::Budget);
  EXPECT_EQ(b.execs, 12u);
  EXPECT_EQ(b.duration_ns, 34u);
  EXPECT_TRUE(b.improved);
}

TEST(Rpc, MissingOptionalFieldsKeepTheirDefaults) {
  const auto f = json{{"seed", 5}}.get<FuzzParams>();
  EXPECT_EQ(f.seed, 5u);
  EXPECT_EQ(f.limit, 0u);
  EXPECT_FALSE(f.paranoid);
  EXPECT_EQ(f.input_to_state, 0u);
  EXPECT_EQ(f.input_to_state_from, 0u);
  EXPECT_TRUE(f.dictionary.empty());
  // A result from a worker that reports no words.
  const auto r = json{{"status", "ok"}}.get<FuzzResult>();
  EXPECT_TRUE(r.new_words.empty());
  EXPECT_TRUE(r.useful_words.empty());
  EXPECT_EQ(r.input_to_state_next, 0u);
  EXPECT_FALSE(r.input_to_state_done);
  const auto m = json{{"mode", "coverage"}, {"resume_verdict", nullptr}}.get<MinimizeParams>();
  EXPECT_EQ(m.mode, MinimizeMode::Coverage);
  EXPECT_FALSE(m.resume_verdict.has_value());
  EXPECT_EQ(m.state, (std::array<std::uint64_t, 6>{}));
  const auto p = json::object().get<PingResult>();
  EXPECT_EQ(p.protocol, kProtocolVersion);
}

TEST(Rpc, ResultsWithoutAStatusOrWithWrongTypesAreRejected) {
  EXPECT_THROW(json::object().get<FuzzResult>(), json::exception);
  EXPECT_THROW(json::object().get<ExecResult>(), json::exception);
  EXPECT_THROW(json::object().get<MinimizeResult>(), json::exception);
  EXPECT_THROW(json::object().get<MinimizeParams>(), json::exception);
  EXPECT_THROW((json{{"seed", "five"}}.get<FuzzParams>()), json::exception);
}

TEST(Rpc, ExecBatchParamsAndResultRoundTripAndBothFieldsAreRequired) {
  const ExecBatchParams p = round_trip(ExecBatchParams{256});
  EXPECT_EQ(p.count, 256u);
  ExecBatchResult r;
  r.status = Status::Failure;
  r.done = 17;
  const ExecBatchResult b = round_trip(r);
  EXPECT_EQ(b.status, Status::Failure);
  EXPECT_EQ(b.done, 17u);
  EXPECT_THROW(json::object().get<ExecBatchParams>(), json::exception);
  EXPECT_THROW((json{{"status", "ok"}}.get<ExecBatchResult>()), json::exception);
  EXPECT_THROW((json{{"done", 3}}.get<ExecBatchResult>()), json::exception);
}

TEST(Rpc, EveryMethodStatusAndModeKeepsItsWireName) {
  const std::pair<Method, const char*> methods[] = {{Method::Ping, "ping"},
                                                    {Method::Fuzz, "fuzz"},
                                                    {Method::Exec, "exec"},
                                                    {Method::ExecBatch, "exec_batch"},
                                                    {Method::Minimize, "minimize"}};
  for (const auto& [m, name] : methods) {
    EXPECT_EQ(json(m), name);
    EXPECT_EQ(json(name).get<Method>(), m) << name;
    const Request back = decode_request(std::string("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"") + name + "\"}");
    EXPECT_EQ(back.method, m) << name;
  }
  const std::pair<Status, const char*> statuses[] = {{Status::Ok, "ok"},           {Status::Interesting, "interesting"},
                                                     {Status::Failure, "failure"}, {Status::Skipped, "skipped"},
                                                     {Status::Done, "done"},       {Status::Budget, "budget"}};
  for (const auto& [st, name] : statuses) {
    EXPECT_EQ(json(st), name);
    EXPECT_EQ(json(name).get<Status>(), st) << name;
  }
  EXPECT_EQ(json(MinimizeMode::Failure), "failure");
  EXPECT_EQ(json(MinimizeMode::Coverage), "coverage");
  EXPECT_EQ(json("coverage").get<MinimizeMode>(), MinimizeMode::Coverage);
}

TEST(Rpc, AnUnknownStatusOrModeIsAnErrorNotTheFirstValue) {
  for (const char* bad : {"OK", "", "interesting ", "crash"}) {
    EXPECT_THROW(json(bad).get<Status>(), ProtocolError) << bad;
    EXPECT_THROW((json{{"status", bad}}.get<FuzzResult>()), ProtocolError) << bad;
  }
  EXPECT_THROW((json{{"mode", "smaller"}}.get<MinimizeParams>()), ProtocolError);
  // Not a string at all: nlohmann's type error, which the worker answers as invalid params.
  EXPECT_THROW((json{{"status", 1}}.get<ExecResult>()), json::exception);
  EXPECT_THROW(json(nullptr).get<Method>(), json::exception);
}

TEST(Rpc, AnUnknownMethodIsReportedWithTheRequestsIdAndName) {
  try {
    decode_request(R"({"jsonrpc":"2.0","id":41,"method":"fuzz_harder","params":{}})");
    FAIL() << "an unknown method decoded";
  } catch (const UnknownMethod& e) {
    EXPECT_EQ(e.id(), 41u);
    EXPECT_NE(std::string(e.what()).find("fuzz_harder"), std::string::npos) << e.what();
  }
  // It is a protocol error too, for a side that only knows those.
  EXPECT_THROW(decode_request(R"({"jsonrpc":"2.0","id":1,"method":"Ping"})"), ProtocolError);
}

TEST(Rpc, ByteWordsTravelAsHexAndMalformedHexIsAnError) {
  FuzzParams p;
  p.dictionary = {std::string("\0\xff", 2), "A"};
  const json j = p;
  EXPECT_EQ(j["dictionary"], (json{"00ff", "41"}));
  FuzzResult r;
  r.new_words = {"\x80"};
  r.useful_words = {"ok"};
  const json jr = r;
  EXPECT_EQ(jr["new_words"], json{"80"});
  EXPECT_EQ(jr["useful_words"], json{"6f6b"});
  EXPECT_THROW((json{{"dictionary", {"0g"}}}.get<FuzzParams>()), ProtocolError);
  EXPECT_THROW((json{{"status", "ok"}, {"new_words", {"abc"}}}.get<FuzzResult>()), ProtocolError);
  EXPECT_THROW((json{{"dictionary", "00ff"}}.get<FuzzParams>()), json::exception);
}

// The messages docs/rpc-protocol.md shows, as captured from real runs: they decode, and
// encode back to the same JSON (nlohmann writes keys in order, so the text is the same).
TEST(Rpc, TheDocumentedMessagesDecodeAndEncodeUnchanged) {
  const char* fuzz_params =
      R"({"deadline_ms":20,"dictionary":[],"input_to_state":512,"input_to_state_from":0,"limit":297,"max_len":4096,"only_ascii":false,"paranoid":false,"seed":49947422138667844,"value_profile":false})";
  EXPECT_EQ(json(json::parse(fuzz_params).get<FuzzParams>()).dump(), fuzz_params);
  const char* fuzz_result =
      R"({"duration_ns":0,"exec_ns":0,"execs":1,"input_to_state_done":false,"input_to_state_execs":0,"input_to_state_next":0,"new_bits":4,"new_words":[],"status":"interesting","useful_words":[]})";
  EXPECT_EQ(json(json::parse(fuzz_result).get<FuzzResult>()).dump(), fuzz_result);
  const char* minimize_params =
      R"({"deadline_ms":1000,"limit":0,"mode":"failure","resume_verdict":null,"state":[0,0,0,0,0,0],"target":{"detail":"SIGSEGV","exit_code":0,"kind":3,"site":"fk+0x391da"}})";
  EXPECT_EQ(json(json::parse(minimize_params).get<MinimizeParams>()).dump(), minimize_params);
  const char* minimize_result = R"({"duration_ns":1507064,"execs":2,"improved":true,"status":"done"})";
  EXPECT_EQ(json(json::parse(minimize_result).get<MinimizeResult>()).dump(), minimize_result);
  const char* ping_result = R"({"counters":299,"pid":9314,"protocol":1,"test":"FuzzEscape","types":["string"]})";
  EXPECT_EQ(json(json::parse(ping_result).get<PingResult>()).dump(), ping_result);
  const char* exec_result = R"({"duration_ns":842122,"new_bits":79,"status":"ok"})";
  EXPECT_EQ(json(json::parse(exec_result).get<ExecResult>()).dump(), exec_result);
  const char* batch = R"({"done":256,"status":"ok"})";
  EXPECT_EQ(json(json::parse(batch).get<ExecBatchResult>()).dump(), batch);
  EXPECT_EQ(encode_request(Request{5, Method::ExecBatch, ExecBatchParams{256}}),
            "{\"id\":5,\"jsonrpc\":\"2.0\",\"method\":\"exec_batch\",\"params\":{\"count\":256}}\n");
}

TEST(Rpc, EachMethodHasItsOwnStatuses) {
  EXPECT_TRUE(status_allowed(Method::Ping, Status::Ok));
  EXPECT_FALSE(status_allowed(Method::Ping, Status::Failure));
  for (Status st : {Status::Ok, Status::Interesting, Status::Failure}) EXPECT_TRUE(status_allowed(Method::Fuzz, st));
  for (Status st : {Status::Skipped, Status::Done, Status::Budget}) EXPECT_FALSE(status_allowed(Method::Fuzz, st));
  for (Status st : {Status::Ok, Status::Skipped, Status::Failure}) EXPECT_TRUE(status_allowed(Method::Exec, st));
  EXPECT_FALSE(status_allowed(Method::Exec, Status::Interesting));
  EXPECT_TRUE(status_allowed(Method::ExecBatch, Status::Failure));
  EXPECT_FALSE(status_allowed(Method::ExecBatch, Status::Skipped));
  for (Status st : {Status::Done, Status::Budget, Status::Failure}) EXPECT_TRUE(status_allowed(Method::Minimize, st));
  EXPECT_FALSE(status_allowed(Method::Minimize, Status::Ok));
}

TEST(Rpc, ResponsesRoundTripWithResultOrError) {
  Response ok;
  ok.id = 9;
  ok.ok = true;
  FuzzResult fr;
  fr.status = Status::Ok;
  fr.execs = 1;
  ok.result = fr;
  const std::string line = encode_response(ok);
  ASSERT_EQ(line.back(), '\n');
  const Response b = decode_response(line.substr(0, line.size() - 1));
  EXPECT_EQ(b.id, 9u);
  EXPECT_TRUE(b.ok);
  EXPECT_EQ(b.result.get<FuzzResult>().execs, 1u);

  Response err;
  err.id = 10;
  err.ok = false;
  err.error_code = kInvalidParams;
  err.error_message = "bad\nparams";
  const std::string eline = encode_response(err);
  EXPECT_EQ(eline.find('\n'), eline.size() - 1);
  const Response e = decode_response(eline);
  EXPECT_EQ(e.id, 10u);
  EXPECT_FALSE(e.ok);
  EXPECT_EQ(e.error_code, kInvalidParams);
  EXPECT_EQ(e.error_message, "bad\nparams");
}

TEST(Rpc, RequestWithoutParamsGetsAnEmptyObject) {
  const Request r = decode_request(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(r.method, Method::Ping);
  EXPECT_TRUE(r.params.is_object());
  EXPECT_TRUE(r.params.empty());
}

TEST(Rpc, MalformedRequestsAreProtocolErrors) {
  const char* bad[] = {
      "",
      "not json",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"",  // truncated
      "[1,2,3]",
      "\"a string\"",
      "42",
      R"({"id":1,"method":"ping"})",                     // no version
      R"({"jsonrpc":"1.0","id":1,"method":"ping"})",     // wrong version
      R"({"jsonrpc":2.0,"id":1,"method":"ping"})",       // version not a string
      R"({"jsonrpc":"2.0","method":"ping"})",            // no id
      R"({"jsonrpc":"2.0","id":"1","method":"ping"})",   // string id
      R"({"jsonrpc":"2.0","id":-1,"method":"ping"})",    // negative id
      R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})",   // fractional id
      R"({"jsonrpc":"2.0","id":null,"method":"ping"})",  // null id
      R"({"jsonrpc":"2.0","id":1})",                     // no method
      R"({"jsonrpc":"2.0","id":1,"method":7})",          // method not a string
  };
  for (const char* line : bad) {
    EXPECT_THROW(decode_request(line), ProtocolError) << line;
  }
}

TEST(Rpc, MalformedResponsesAreProtocolErrors) {
  const char* bad[] = {
      "{",
      "[]",
      R"({"jsonrpc":"2.1","id":1,"result":{}})",
      R"({"jsonrpc":"2.0","result":{}})",
      R"({"jsonrpc":"2.0","id":"x","result":{}})",
      R"({"jsonrpc":"2.0","id":1})",                                     // neither
      R"({"jsonrpc":"2.0","id":1,"result":[]})",                         // result not object
      R"({"jsonrpc":"2.0","id":1,"error":"oops"})",                      // error not object
      R"({"jsonrpc":"2.0","id":1,"error":{"message":"m"}})",             // no code
      R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})",  // code not a number
      R"({"jsonrpc":"2.0","id":1,"error":{"code":-32000}})",             // no message
  };
  for (const char* line : bad) {
    EXPECT_THROW(decode_response(line), ProtocolError) << line;
  }
}

TEST(Rpc, ProtocolErrorMessagesSayWhatIsWrong) {
  auto message = [](const char* line) {
    try {
      decode_request(line);
    } catch (const ProtocolError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("nope").find("not valid JSON"), std::string::npos);
  EXPECT_NE(message("[]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(message(R"({"jsonrpc":"1.0","id":1})").find("jsonrpc"), std::string::npos);
  EXPECT_NE(message(R"({"jsonrpc":"2.0"})").find("\"id\""), std::string::npos);
}

std::vector<std::string> drain(LineBuffer& b) {
  std::vector<std::string> lines;
  while (auto l = b.next_line()) lines.push_back(*l);
  return lines;
}

TEST(Rpc, LineBufferSplitsLinesAtAnyChunkBoundary) {
  const std::vector<std::string> messages = {
      encode_request(Request{1, Method::Ping, json::object()}),
      "\n",  // an empty line is a line
      encode_response(Response{2, true, json{{"status", "ok"}}, 0, ""}),
      encode_request(Request{3, Method::Fuzz, json(FuzzParams{})}),
  };
  std::string stream;
  std::vector<std::string> expected;
  for (const auto& m : messages) {
    stream += m;
    expected.push_back(m.substr(0, m.size() - 1));
  }
  // Every single split point, then random chunkings.
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    LineBuffer b;
    std::vector<std::string> got;
    b.append(stream.data(), cut);
    for (auto& l : drain(b)) got.push_back(l);
    b.append(stream.data() + cut, stream.size() - cut);
    for (auto& l : drain(b)) got.push_back(l);
    ASSERT_EQ(got, expected) << "cut at " << cut;
    EXPECT_TRUE(b.empty());
  }
  std::mt19937 rng(4);
  for (int trial = 0; trial < 500; ++trial) {
    LineBuffer b;
    std::vector<std::string> got;
    for (std::size_t pos = 0; pos < stream.size();) {
      std::size_t n = std::min<std::size_t>(stream.size() - pos, rng() % 9);
      b.append(stream.data() + pos, n);
      pos += n;
      for (auto& l : drain(b)) got.push_back(l);
    }
    ASSERT_EQ(got, expected) << "trial " << trial;
  }
}

TEST(Rpc, LineBufferKeepsAnIncompleteLineUntilItsNewlineArrives) {
  LineBuffer b;
  b.append("{\"a\":", 5);
  EXPECT_FALSE(b.next_line().has_value());
  EXPECT_FALSE(b.empty());
  b.append("1}\n{", 4);
  EXPECT_EQ(b.next_line(), std::optional<std::string>("{\"a\":1}"));
  EXPECT_FALSE(b.next_line().has_value());
  EXPECT_FALSE(b.empty());
}

TEST(Rpc, LineBufferRefusesAMessageLongerThanTheLimitWithoutANewline) {
  LineBuffer ok;
  const std::string limit(kMaxMessageBytes, 'a');
  ok.append(limit.data(), limit.size());
  EXPECT_FALSE(ok.next_line().has_value());  // exactly at the limit: still waiting
  ok.append("\n", 1);
  EXPECT_EQ(ok.next_line()->size(), kMaxMessageBytes);

  LineBuffer over;
  over.append(limit.data(), limit.size());
  over.append("a", 1);
  EXPECT_THROW(over.next_line(), ProtocolError);
}

TEST(Rpc, WriteAllWritesEverythingThroughAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  // More than a pipe buffer holds, so that writes are short and have to continue.
  std::string data(1 << 20, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 31 + 7);
  std::string got;
  std::thread reader([&] {
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) got.append(buf, static_cast<std::size_t>(n));
  });
  EXPECT_TRUE(write_all(fds[1], data));
  close(fds[1]);
  reader.join();
  close(fds[0]);
  EXPECT_TRUE(got == data);
}

TEST(Rpc, WriteAllFinishesDespiteInterruptedAndShortWrites) {
  // A timer signal without SA_RESTART interrupts the blocked write again and again, which
  // makes write() return short counts (or EINTR); write_all must carry on each time.
  struct sigaction sa {};
  sa.sa_handler = [](int) {};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  struct sigaction old_sa {};
  ASSERT_EQ(sigaction(SIGALRM, &sa, &old_sa), 0);
  // Only this thread takes the signal: the reader starts with it blocked.
  sigset_t alarm;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm, nullptr);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string data(4 << 20, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 131 + 3);
  std::string got;
  std::thread reader([&] {
    char buf[512];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
      got.append(buf, static_cast<std::size_t>(n));
      if (got.size() % (64 * 1024) < sizeof buf) usleep(200);  // a slow reader
    }
  });
  pthread_sigmask(SIG_UNBLOCK, &alarm, nullptr);
  itimerval every_ms{{0, 1000}, {0, 1000}};
  ASSERT_EQ(setitimer(ITIMER_REAL, &every_ms, nullptr), 0);
  const bool ok = write_all(fds[1], data);
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
  sigaction(SIGALRM, &old_sa, nullptr);
  close(fds[1]);
  reader.join();
  close(fds[0]);
  EXPECT_TRUE(ok);
  EXPECT_EQ(got.size(), data.size());
  EXPECT_TRUE(got == data);
}

TEST(Rpc, WriteAllReportsFailureOnABadDescriptor) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);
  close(fds[1]);
  EXPECT_FALSE(write_all(fds[1], "hello"));
}

}  // namespace
}  // namespace cfuzz::core::rpc
