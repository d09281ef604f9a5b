// A small SVG histogram (screening preview: the distribution of one metric over the shown rows).

import type { Bin } from "../state/histogram";

const WIDTH = 280;
const HEIGHT = 72;
const AXIS = 14;

function short(n: number): string {
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

export function HistogramChart(props: { bins: readonly Bin[]; label: string; testId: string }) {
  const { bins } = props;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const barWidth = WIDTH / Math.max(1, bins.length);
  const first = bins[0];
  const last = bins[bins.length - 1];
  return (
    <svg
      data-testid={props.testId}
      data-bins={String(bins.length)}
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`}
      width="100%"
      style={{ maxWidth: WIDTH, display: "block" }}
    >
      <title>{props.label}</title>
      {bins.map((b, i) => {
        const h = (b.count / max) * (HEIGHT - 4);
        return (
          <rect
            key={i}
            x={i * barWidth + 1}
            y={HEIGHT - h}
            width={Math.max(1, barWidth - 2)}
            height={h}
            fill="#0f6cbd"
          >
            <title>{`${short(b.from)}–${short(b.to)}: ${b.count}`}</title>
          </rect>
        );
      })}
      <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="#616161" strokeWidth={1} />
      {first && (
        <text x={0} y={HEIGHT + AXIS - 2} fontSize={10} fill="#424242">
          {short(first.from)}
        </text>
      )}
      {last && (
        <text x={WIDTH} y={HEIGHT + AXIS - 2} fontSize={10} fill="#424242" textAnchor="end">
          {short(last.to)}
        </text>
      )}
    </svg>
  );
}
