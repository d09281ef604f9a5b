// The screening preview's distribution of one metric: one row per bin, its range, a bar and its count.

import { edgeText, type Bin } from "../state/histogram";

/**
 * Horizontal bars (they fit 320 px with readable labels, unlike columns): each row reads
 * "10–12.5 ▇▇▇ 7". `data-total` is the number of values charted, the sum of the counts.
 */
export function HistogramChart(props: {
  bins: readonly Bin[];
  label: string;
  testId: string;
  /** "{n} companies" in the pane's language, for each bar's accessible text. */
  countText: (n: number) => string;
}) {
  const { bins } = props;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const total = bins.reduce((n, b) => n + b.count, 0);
  return (
    <div
      data-testid={props.testId}
      data-bins={String(bins.length)}
      data-total={String(total)}
      role="list"
      aria-label={props.label}
      className="kaisha-histogram"
    >
      {bins.map((b, i) => {
        const range =
          b.from === b.to
            ? edgeText(b.from, bins)
            : `${edgeText(b.from, bins)}–${edgeText(b.to, bins)}`;
        return (
          <div
            key={i}
            role="listitem"
            className="kaisha-histogram-row"
            data-testid={`${props.testId}-bin-${i}`}
            data-count={String(b.count)}
            aria-label={`${range}: ${props.countText(b.count)}`}
          >
            <span className="kaisha-histogram-range" aria-hidden="true">
              {range}
            </span>
            <span className="kaisha-histogram-track" aria-hidden="true">
              <span
                className="kaisha-histogram-bar"
                style={{ width: `${(b.count / max) * 100}%` }}
              />
            </span>
            <span className="kaisha-histogram-count" aria-hidden="true">
              {b.count}
            </span>
          </div>
        );
      })}
    </div>
  );
}
