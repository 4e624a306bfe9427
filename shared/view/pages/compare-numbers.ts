import { isolatedText } from '../../report-render/html/escape.js';

/** A delta with its sign always written (− for a loss, ± for none), four decimals: the compare page's one way to show a change. */
export function signedDelta(delta: number): string {
  return `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(4)}`;
}

/** A p-value with three decimals, or "< 0.001" (as HTML), where three decimals would read 0.000. */
export function pValueHtml(value: number): string {
  return value < 0.001 ? '&lt; 0.001' : value.toFixed(3);
}

/** A stored name (a metric path) as escaped, isolated HTML that may break after each `/`: metric paths are long and read best broken there. */
export function breakableName(name: string): string {
  return isolatedText(name, (text) => text.replaceAll('/', '/<wbr>'));
}
