/**
 * The indices of a chart's x labels that fit its width: every k-th point so that labels keep at
 * least `minGap` pixels apart (31 dates on a 390 px phone overlapped). The last point is kept when
 * it does not crowd the one before it.
 */
export function thinLabels(count: number, widthPx: number, minGap = 56): number[] {
  if (count <= 0) return [];
  const fit = Math.max(1, Math.floor(widthPx / minGap));
  const step = Math.max(1, Math.ceil(count / fit));
  const out: number[] = [];
  for (let i = 0; i < count; i += step) out.push(i);
  const last = count - 1;
  if (out[out.length - 1] !== last && last - (out[out.length - 1] ?? 0) >= step / 2 && out.length < fit)
    out.push(last);
  return out;
}
