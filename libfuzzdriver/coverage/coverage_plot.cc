#include "libfuzzdriver/coverage/coverage_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "libfuzzdriver/util/html_escape.h"

namespace cfuzz::driver {

namespace {

// The drawing's geometry, in SVG user units (the element scales to the page's width).
constexpr double kWidth = 960;
constexpr double kLeft = 76;  // room for the y axis' numbers and title
constexpr double kRight = 24;
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kChartHeight = 150;
constexpr double kEdgesTop = 64;
constexpr double kCorpusTop = kEdgesTop + kChartHeight + 44;
constexpr double kAxisBottom = kCorpusTop + kChartHeight;
constexpr double kHeight = kAxisBottom + 48;

constexpr const char* kEdgesColor = "#2563eb";
constexpr const char* kCorpusColor = "#d97706";

struct Run {
  std::string id;
  std::vector<const StatsRecord*> records;
  double offset = 0;  // fuzzing time of the runs before it
  double length = 0;  // its own last elapsed time
};

// Records grouped by run, runs in the order they first appear, each placed after the last.
std::vector<Run> runs_of(const std::vector<StatsRecord>& stats) {
  std::vector<Run> runs;
  for (const auto& r : stats) {
    auto it = std::find_if(runs.begin(), runs.end(), [&](const Run& run) { return run.id == r.run; });
    if (it == runs.end()) it = runs.insert(runs.end(), Run{r.run, {}, 0, 0});
    it->records.push_back(&r);
    it->length = std::max(it->length, r.elapsed);
  }
  double offset = 0;
  for (auto& run : runs) {
    run.offset = offset;
    offset += run.length;
  }
  return runs;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A step of 1, 2 or 5 times a power of ten that cuts [0, max] into at most about 4 parts;
// whole numbers, since both series count things.
double count_step(double max) {
  double raw = max / 4;
  if (raw <= 1) return 1;
  double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

// Steps a reader counts time in: tenths of a second up to days.
double time_step(double total) {
  static constexpr double kSteps[] = {0.1, 0.2, 0.5, 1,    2,    5,    10,    15,    30,    60,   120,
                                      300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
  for (double s : kSteps) {
    if (total / s <= 8) return s;
  }
  return 86400 * count_step(total / 86400 / 2);
}

// "1.5k", "20k", "3.2M": tick labels that fit left of the axis.
std::string count_label(double v) {
  char buf[32];
  if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  } else if (v >= 1e4) {
    std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}

// "0", "0.5s", "45s", "1m30s", "2h", "1h30m": the parts that are not zero.
std::string time_label(double seconds) {
  if (seconds <= 0) return "0";
  if (seconds < 1) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    return buf;
  }
  auto s = static_cast<std::int64_t>(std::llround(seconds));
  std::int64_t h = s / 3600, m = s / 60 % 60;
  s %= 60;
  std::string out;
  if (h > 0) out += std::to_string(h) + "h";
  if (m > 0) out += std::to_string(m) + "m";
  if (s > 0) out += std::to_string(s) + "s";
  return out;
}

// "12,345": the latest figure in a chart's title.
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

struct Series {
  const char* name;   // class of its polylines
  const char* title;  // above the chart
  const char* color;
  double top;
  std::uint64_t StatsRecord::*field;
};

class Plot {
 public:
  explicit Plot(const std::vector<StatsRecord>& stats) : stats_(stats), runs_(runs_of(stats)) {
    total_time_ = runs_.back().offset + runs_.back().length;
    // One instant (a single record, or a run stopped at once) still gets an axis.
    if (total_time_ <= 0) total_time_ = 1;
  }

  std::string svg() {
    out_ += "<svg data-testid=\"coverage-plot\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " +
            num(kWidth) + " " + num(kHeight) + "\" width=\"" + num(kWidth) + "\" height=\"" + num(kHeight) +
            "\" role=\"img\" aria-labelledby=\"plot-title\">\n";
    out_ += "<title id=\"plot-title\">Edges reached and corpus entries over " + time_label(total_time_) +
            " of fuzzing in " + std::to_string(runs_.size()) + (runs_.size() == 1 ? " run" : " runs") + "</title>\n";
    // Its own styles, so that it draws the same wherever it is put.
    out_ +=
        "<style>.plot text{font:12px system-ui,sans-serif;fill:#374151}.plot .chart-title{font-size:13px;"
        "font-weight:600;fill:#111827}.plot .latest{font-weight:400;fill:#6b7280}.plot .axis-title{fill:#6b7280}"
        ".plot .run-label{fill:#9ca3af}.plot .axis{stroke:#9ca3af;stroke-width:1}.plot .grid{stroke:#e5e7eb;"
        "stroke-width:1}.plot .boundary{stroke:#6b7280;stroke-width:1;stroke-dasharray:4 3}</style>\n";
    legend();
    chart({"edges", "Edges reached", kEdgesColor, kEdgesTop, &StatsRecord::edges});
    chart({"corpus", "Corpus entries", kCorpusColor, kCorpusTop, &StatsRecord::corpus});
    time_axis();
    run_boundaries();
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  double x_of(double t) const { return kLeft + t / total_time_ * kPlotWidth; }

  void legend() {
    double x = kLeft;
    auto item = [&](const std::string& swatch, const std::string& label) {
      out_ += swatch;
      out_ += "<text x=\"" + num(x + 30) + "\" y=\"24\" class=\"legend\">" + label + "</text>\n";
      x += 30 + 8.0 * static_cast<double>(label.size()) + 28;
    };
    item("<line x1=\"" + num(x) + "\" y1=\"20\" x2=\"" + num(x + 22) + "\" y2=\"20\" stroke=\"" + kEdgesColor +
             "\" stroke-width=\"2.5\"/>",
         "edges reached (cov)");
    item("<line x1=\"" + num(x) + "\" y1=\"20\" x2=\"" + num(x + 22) + "\" y2=\"20\" stroke=\"" + kCorpusColor +
             "\" stroke-width=\"2.5\"/>",
         "corpus entries");
    if (runs_.size() > 1) {
      item("<line x1=\"" + num(x + 11) + "\" y1=\"12\" x2=\"" + num(x + 11) + "\" y2=\"28\" class=\"boundary\"/>",
           "start of the next run");
    }
  }

  void chart(const Series& s) {
    std::uint64_t max = 0, latest = stats_.back().*s.field;
    for (const auto& r : stats_) max = std::max(max, r.*s.field);
    double step = count_step(static_cast<double>(max));
    double y_max = std::max(step, std::ceil(static_cast<double>(max) / step) * step);
    auto y_of = [&](double v) { return s.top + kChartHeight - v / y_max * kChartHeight; };

    out_ += "<text x=\"" + num(kLeft) + "\" y=\"" + num(s.top - 10) + "\" class=\"chart-title\">" + s.title +
            " <tspan class=\"latest\">(latest " + grouped(latest) + ", most " + grouped(max) + ")</tspan></text>\n";
    // Grid lines and their numbers.
    for (double v = 0; v <= y_max + step / 2; v += step) {
      double y = y_of(v);
      out_ += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y) + "\" x2=\"" + num(kLeft + kPlotWidth) + "\" y2=\"" +
              num(y) + "\" class=\"" + (v == 0 ? "axis" : "grid") + "\"/>";
      out_ += "<text x=\"" + num(kLeft - 8) + "\" y=\"" + num(y + 4) + "\" class=\"tick\" text-anchor=\"end\">" +
              count_label(v) + "</text>\n";
    }
    out_ += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(s.top) + "\" x2=\"" + num(kLeft) + "\" y2=\"" +
            num(s.top + kChartHeight) + "\" class=\"axis\"/>\n";
    // The axis title, turned to run along the axis.
    double mid = s.top + kChartHeight / 2;
    out_ += "<text transform=\"translate(16 " + num(mid) +
            ") rotate(-90)\" class=\"axis-title\" text-anchor=\"middle\">" + s.name + "</text>\n";

    for (const auto& run : runs_) {
      std::string points;
      for (const StatsRecord* r : run.records) {
        if (!points.empty()) points += ' ';
        points += num(x_of(run.offset + r->elapsed)) + "," + num(y_of(static_cast<double>(r->*s.field)));
      }
      out_ += std::string("<polyline class=\"") + s.name + "\" data-run=\"" + html_escape(run.id) +
              "\" fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"" +
              points + "\"/>\n";
      // A run with one record is a point, which a polyline does not draw.
      if (run.records.size() == 1) {
        const StatsRecord* r = run.records[0];
        out_ += std::string("<circle cx=\"") + num(x_of(run.offset + r->elapsed)) + "\" cy=\"" +
                num(y_of(static_cast<double>(r->*s.field))) + "\" r=\"3\" fill=\"" + s.color + "\"/>\n";
      }
    }
  }

  void time_axis() {
    double step = time_step(total_time_);
    // Ticks counted, not summed: 0.1 added up thirty times is not 3.
    for (int i = 0; i * step <= total_time_ + step / 1000; ++i) {
      double t = i * step, x = x_of(t);
      for (double top : {kEdgesTop, kCorpusTop}) {
        out_ += "<line x1=\"" + num(x) + "\" y1=\"" + num(top + kChartHeight) + "\" x2=\"" + num(x) + "\" y2=\"" +
                num(top + kChartHeight + 5) + "\" class=\"axis\"/>";
      }
      out_ += "<text x=\"" + num(x) + "\" y=\"" + num(kAxisBottom + 20) + "\" class=\"tick\" text-anchor=\"middle\">" +
              time_label(t) + "</text>\n";
    }
    out_ += "<text x=\"" + num(kLeft + kPlotWidth / 2) + "\" y=\"" + num(kAxisBottom + 42) +
            "\" class=\"axis-title\" text-anchor=\"middle\">fuzzing time, all runs one after another</text>\n";
  }

  void run_boundaries() {
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      double x = x_of(runs_[i].offset);
      if (i > 0) {
        out_ += "<line x1=\"" + num(x) + "\" y1=\"" + num(kEdgesTop - 4) + "\" x2=\"" + num(x) + "\" y2=\"" +
                num(kAxisBottom) + "\" class=\"boundary\"><title>run " + std::to_string(i + 1) + " (" +
                html_escape(runs_[i].id) + ") starts</title></line>\n";
      }
      // Numbered where there is room to read the number.
      if (runs_.size() > 1 && runs_[i].length / total_time_ * kPlotWidth >= 44) {
        out_ += "<text x=\"" + num(x + 4) + "\" y=\"" + num(kEdgesTop + kChartHeight - 8) +
                "\" class=\"run-label\">run " + std::to_string(i + 1) + "</text>\n";
      }
    }
  }

  const std::vector<StatsRecord>& stats_;
  std::vector<Run> runs_;
  double total_time_ = 1;
  std::string out_;
};

}  // namespace

std::string coverage_plot_svg(const std::vector<StatsRecord>& stats) {
  if (stats.empty()) return "";
  return Plot(stats).svg();
}

}  // namespace cfuzz::driver
