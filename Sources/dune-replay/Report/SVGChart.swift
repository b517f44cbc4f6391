import DuneEvents
import DuneProjections
import DuneTools

/// A small SVG chart: lines with gaps, dots, bars, a band and reference lines
/// over an integer x axis (day ordinals or week indexes) and a numeric y axis.
///
/// Every number is written with at most one decimal, so the same data gives
/// the same bytes. Each series is one element with a `class` and a
/// `data-count` (how many values it draws), which tests read from the DOM.
struct SVGChart {
    let id: String
    let title: String
    let xRange: ClosedRange<Int>
    let yRange: ClosedRange<Double>
    var width = 1100.0
    var height = 250.0
    private var elements: [String] = []
    private var legend: [LegendEntry] = []
    private var xLabels: [AxisLabel] = []
    private let left = 56.0, right = 16.0, top = 16.0, bottom = 28.0

    /// A point of a series; `y` is `nil` for a gap.
    struct Point {
        var x: Int
        var y: Double?
    }

    /// A label under the x axis.
    struct AxisLabel {
        var x: Int
        var text: String
    }

    private struct LegendEntry {
        var label: String
        var color: String
    }

    init(id: String, title: String, xRange: ClosedRange<Int>, yRange: ClosedRange<Double>) {
        self.id = id
        self.title = title
        self.xRange = xRange
        // A flat range would divide by zero.
        self.yRange = yRange.lowerBound < yRange.upperBound ? yRange : (yRange.lowerBound - 1)...(yRange.upperBound + 1)
    }

    // MARK: - Scales

    private var plotWidth: Double { width - left - right }
    private var plotHeight: Double { height - top - bottom }

    /// The x pixel of the centre of slot `value`.
    func x(_ value: Int) -> Double {
        let slots = Double(xRange.upperBound - xRange.lowerBound + 1)
        return left + (Double(value - xRange.lowerBound) + 0.5) / slots * plotWidth
    }

    /// The width of one x slot in pixels.
    var slotWidth: Double { plotWidth / Double(xRange.upperBound - xRange.lowerBound + 1) }

    func y(_ value: Double) -> Double {
        let clamped = min(max(value, yRange.lowerBound), yRange.upperBound)
        return top + (yRange.upperBound - clamped) / (yRange.upperBound - yRange.lowerBound) * plotHeight
    }

    // MARK: - Series

    /// A line through `points`, broken where `y` is `nil`.
    mutating func line(_ points: [Point], name: String, label: String, color: String, width strokeWidth: Double = 2, dashed: Bool = false) {
        var path = ""
        var penDown = false
        var count = 0
        for point in points {
            guard let value = point.y else { penDown = false; continue }
            path += (penDown ? "L" : "M") + n(x(point.x)) + " " + n(y(value))
            penDown = true
            count += 1
        }
        elements.append("<path class=\"series \(name)\" data-count=\"\(count)\" d=\"\(path)\" fill=\"none\" stroke=\"\(color)\" "
            + "stroke-width=\"\(n(strokeWidth))\" stroke-linejoin=\"round\"\(dashed ? " stroke-dasharray=\"6 4\"" : "")/>")
        legend.append(LegendEntry(label: label, color: color))
    }

    /// A dot per point with a value.
    mutating func dots(_ points: [Point], name: String, label: String?, color: String, radius: Double = 2.5) {
        let drawn = points.compactMap { point in point.y.map { "<circle cx=\"\(n(x(point.x)))\" cy=\"\(n(y($0)))\" r=\"\(n(radius))\"/>" } }
        elements.append("<g class=\"series \(name)\" data-count=\"\(drawn.count)\" fill=\"\(color)\">" + drawn.joined() + "</g>")
        if let label { legend.append(LegendEntry(label: label, color: color)) }
    }

    /// A bar per point with a value, from 0 (or the axis bottom) to the value.
    /// - Parameter negativeColor: the colour of bars below 0 (default `color`).
    mutating func bars(_ points: [Point], name: String, label: String, color: String, negativeColor: String? = nil, fraction: Double = 0.7) {
        let base = min(max(0, yRange.lowerBound), yRange.upperBound)
        let barWidth = max(1, slotWidth * fraction)
        var drawn: [String] = []
        for point in points {
            guard let value = point.y else { continue }
            let top = min(y(value), y(base))
            let height = max(0.5, abs(y(value) - y(base)))
            let fill = value < 0 ? (negativeColor ?? color) : color
            drawn.append("<rect class=\"bar\" x=\"\(n(x(point.x) - barWidth / 2))\" y=\"\(n(top))\" width=\"\(n(barWidth))\" height=\"\(n(height))\" fill=\"\(fill)\"/>")
        }
        elements.append("<g class=\"series \(name)\" data-count=\"\(drawn.count)\">" + drawn.joined() + "</g>")
        legend.append(LegendEntry(label: label, color: color))
    }

    /// A shaded band from x `first` to `last`, between `low` and `high`.
    mutating func band(from first: Int, to last: Int, low: Double, high: Double, name: String, label: String, color: String) {
        let x0 = x(first) - slotWidth / 2
        let x1 = x(last) + slotWidth / 2
        elements.append("<rect class=\"series \(name)\" data-count=\"1\" x=\"\(n(x0))\" y=\"\(n(y(high)))\" width=\"\(n(x1 - x0))\" "
            + "height=\"\(n(max(0.5, y(low) - y(high))))\" fill=\"\(color)\" fill-opacity=\"0.25\"/>")
        legend.append(LegendEntry(label: label, color: color))
    }

    /// A horizontal reference line at `value` with a label at its right end.
    mutating func rule(at value: Double, label: String, color: String = "#888") {
        elements.append("<line class=\"rule\" x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y(value)))\" y2=\"\(n(y(value)))\" "
            + "stroke=\"\(color)\" stroke-dasharray=\"4 4\"/>"
            + "<text x=\"\(n(width - right - 4))\" y=\"\(n(y(value) - 4))\" text-anchor=\"end\" class=\"rule-label\">\(HTMLText.escape(label))</text>")
    }

    /// Labels under the x axis.
    mutating func labelX(_ labels: [AxisLabel]) {
        xLabels = labels
    }

    // MARK: - Rendering

    /// The `<svg>` element.
    func render() -> String {
        var svg = "<svg id=\"\(id)\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" "
            + "width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">"
        svg += "<title>\(HTMLText.escape(title))</title>"
        svg += "<rect class=\"frame\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" fill=\"#fafafa\" stroke=\"#ddd\"/>"
        for index in 0...4 {
            let value = yRange.lowerBound + (yRange.upperBound - yRange.lowerBound) * Double(index) / 4
            svg += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y(value)))\" y2=\"\(n(y(value)))\" stroke=\"#eee\"/>"
            svg += "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(y(value) + 4))\" text-anchor=\"end\">\(n(value, decimals: yRange.upperBound - yRange.lowerBound < 10 ? 1 : 0))</text>"
        }
        // A label near either end is anchored inside the chart, so it is never cut off at its edge;
        // a label too close to the one before it is left out (the last one, the latest date, is kept).
        var placed: [(x: Double, text: String)] = []
        for label in xLabels where xRange.contains(label.x) {
            let at = x(label.x)
            if let previous = placed.last, at - previous.x < 150 {
                if label.x == xLabels.last(where: { xRange.contains($0.x) })?.x { placed.removeLast() } else { continue }
            }
            placed.append((at, label.text))
        }
        for label in placed {
            let anchor = label.x > width - right - 40 ? "end" : label.x < left + 40 ? "start" : "middle"
            let position = anchor == "end" ? width - right : anchor == "start" ? left : label.x
            svg += "<text class=\"tick\" x=\"\(n(position))\" y=\"\(n(height - 8))\" text-anchor=\"\(anchor)\">\(HTMLText.escape(label.text))</text>"
        }
        svg += elements.joined()
        svg += "</svg>"
        return svg
    }

    /// The legend as HTML.
    func renderLegend() -> String {
        "<p class=\"legend\">" + legend.map {
            "<span><i style=\"background:\($0.color)\"></i>\(HTMLText.escape($0.label))</span>"
        }.joined() + "</p>"
    }

    /// A coordinate or value with at most `decimals` (1) decimals.
    func n(_ value: Double, decimals: Int = 1) -> String {
        decimals == 0 ? JSONWriter.formatNumber(value.rounded(.toNearestOrAwayFromZero) + 0) : JSONWriter.formatNumber(Rounding.tenths(value))
    }
}
