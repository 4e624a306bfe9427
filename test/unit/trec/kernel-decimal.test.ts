import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kernelInstance } from '../../../shared/trec/run-kernel.js';

/**
 * The run kernel's decimal reader (kernels/trec-run-kernel.ts, readNumber):
 * trec_eval orders scores by atof's double, the nearest to the decimal with
 * ties to even. The expected bits below were printed by glibc's atof (a C
 * program calling it on each text); the property tests compare with
 * JavaScript's Number, which rounds the same way.
 */
const kernel = kernelInstance();
const scratch = kernel.reserve(512);

function written(text: string): number {
  const bytes = Buffer.from(`${text}\n`, 'latin1');
  new Uint8Array(kernel.memory.buffer, scratch, bytes.length).set(bytes);
  return bytes.length - 1;
}

/** The double the kernel reads from a score's text, NaN when it leaves the text to the JavaScript reader. */
function parsed(text: string): number {
  return kernel.parseNumber(scratch, written(text));
}

/** The text collect() writes for a score (as JavaScript prints its number), undefined when it leaves the file to the JavaScript reader. */
function formatted(text: string): string | undefined {
  const length = kernel.formatNumber(scratch, written(text), scratch + 256);
  return length === 0 ? undefined : Buffer.from(kernel.memory.buffer, scratch + 256, length).toString('latin1');
}

function bitsOf(value: number): bigint {
  return new BigUint64Array(new Float64Array([value]).buffer)[0] as bigint;
}

describe("the run kernel's decimal reader", () => {
  it.each([
    // Scores of official runs: float64 and float32 values at full precision, negative, with exponents.
    ['0.1', 0x3fb999999999999an],
    ['49.19109429178723', 0x40489875c71ad6d7n],
    ['-1.1279716491699219', 0xbff20c2c00000000n],
    ['9.975090383917973e-05', 0x3f1a262b7a9c0000n],
    ['-4.328358772909269e-05', 0xbf06b16cc0000000n],
    ['0.8695691227912903', 0x3febd382a0000000n],
    ['108.61088562011719', 0x405b2718c0000000n],
    ['10.031979740362001', 0x4024105fa605fa8en],
    ['-2.97316', 0xc007c9081c2e33f0n],
    ['231.000000', 0x406ce00000000000n],
    ['1234567890.123456', 0x41d26580b487e6b4n],
    // Exactly halfway between two doubles: the even one.
    ['9007199254740993', 0x4340000000000000n],
    ['9007199254740995', 0x4340000000000002n],
    ['4503599627370496.5', 0x4330000000000000n],
    ['4503599627370497.5', 0x4330000000000002n],
    // Exponents, the largest and smallest normal doubles, and more than 19 digits.
    ['1e23', 0x44b52d02c7e14af6n],
    ['8.98846567431158e307', 0x7fe0000000000000n],
    ['1.7976931348623157e308', 0x7fefffffffffffffn],
    ['1.7976931348623158e308', 0x7fefffffffffffffn],
    ['2.2250738585072014e-308', 0x0010000000000000n],
    ['3.4028234663852886e38', 0x47efffffe0000000n],
    ['123456789012345678901234567890', 0x45f8ee90ff6c373en],
    ['0.000000000000000000000000000000000000001', 0x37d5c72fb1552d83n],
    // Signs, a bare point, an upper-case exponent.
    ['+3', 0x4008000000000000n],
    ['.5', 0x3fe0000000000000n],
    ['5.', 0x4014000000000000n],
    ['2E-0', 0x4000000000000000n],
    ['-0.0', 0x8000000000000000n],
  ])('reads %s as atof does', (text, bits) => {
    expect(bitsOf(parsed(text))).toBe(bits);
  });

  it.each([
    ['a value past the largest double', '1.7976931348623159e308'],
    ['a subnormal value', '5e-324'],
    ['a value below the subnormals', '1e-400'],
    [
      'more than 19 digits whose first 19 and their successor name two doubles (exactly halfway here)',
      '1.00000000000000011102230246251565404236316680908203125',
    ],
  ])('leaves %s to the JavaScript reader', (_described, text) => {
    expect(parsed(text)).toBeNaN();
  });

  it.each(['-', '.', '-.', 'e5', '1e', '1e+', '--1', '0x10', 'inf', 'nan', '1.5.2', ''])('reads no number from "%s"', (text) => {
    expect(parsed(text)).toBeNaN();
  });

  it('reads every double printed shortest, at 17 digits and at 20 decimals, and float32 values, to the double Number reads', () => {
    const normal = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => value === 0 || Math.abs(value) > 2.3e-308);
    const text = fc.oneof(
      normal.map((value) => String(value)),
      normal.map((value) => value.toPrecision(17)),
      normal.map((value) => value.toExponential(20)),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((value) => value.toFixed(20)),
      fc
        .float({ noNaN: true, noDefaultInfinity: true })
        .filter((value) => value === 0 || Math.abs(value) > 1.2e-38)
        .map((value) => String(value)),
    );
    fc.assert(
      fc.property(text, (each) => {
        expect(Object.is(parsed(each), Number(each))).toBe(true);
      }),
      { numRuns: 20_000, seed: 28_112_026 },
    );
  });

  it('reads random digit strings with a point and an exponent to the double Number reads, or leaves them to it', () => {
    const text = fc
      .tuple(
        fc.constantFrom('', '-', '+'),
        fc.stringMatching(/^[0-9]{1,30}$/),
        fc.nat({ max: 30 }),
        fc.option(fc.integer({ min: -40, max: 40 })),
      )
      .map(
        ([sign, digits, point, exponent]) =>
          `${sign}${digits.slice(0, point)}.${digits.slice(point)}${exponent === null ? '' : `e${exponent}`}`,
      );
    let read = 0;
    fc.assert(
      fc.property(text, (each) => {
        const value = parsed(each);
        if (Number.isNaN(value)) return;
        read++;
        expect(Object.is(value, Number(each))).toBe(true);
      }),
      { numRuns: 20_000, seed: 28_112_026 },
    );
    expect(read).toBeGreaterThan(19_000);
  });
});

describe("the run kernel's score writer (collect)", () => {
  it.each([
    ['231.000000', '231'],
    ['007.250', '7.25'],
    ['-.5', '-0.5'],
    ['49.19109429178723', '49.19109429178723'],
    ['-1.1279716491699219', '-1.1279716491699219'],
    ['9.975090383917973e-05', '0.00009975090383917973'],
    ['1.5e-7', '1.5e-7'],
    ['1e21', '1e+21'],
    ['123e18', '123000000000000000000'],
    ['0.30000000000000004', '0.30000000000000004'],
    ['1.5367507934570312', '1.5367507934570312'],
    // Texts longer than the shortest decimal: shortened, then moved to the nearest of that length.
    ['0.10000000000000001', '0.1'],
    ['0.30000000000000005', '0.30000000000000004'],
    ['0.300000000000000044', '0.30000000000000004'],
    ['10.031979740362001', '10.031979740362'],
    ['10.003717343920000', '10.00371734392'],
    ['0.8695691227912903000', '0.8695691227912903'],
    ['1.1279716491699218750', '1.1279716491699219'],
  ])('writes %s as JavaScript prints its number: %s', (text, printed) => {
    expect(formatted(text)).toBe(printed);
    expect(String(Number(text))).toBe(printed);
  });

  it.each([
    ['a decimal of 17 digits below 10^-10', '1.2345678901234567e-11'],
    ['a decimal of 17 digits above 10^16', '1.2345678901234567e17'],
    ['a decimal of more than 19 significant digits', '0.12345678901234567891'],
  ])('leaves %s to the JavaScript reader', (_described, text) => {
    expect(formatted(text)).toBeUndefined();
  });

  it('writes what JavaScript prints for every double between 10^-10 and 10^16 printed shortest or with 17 digits (19 from 10^-8 to 10^15), every float32 value, and every decimal of up to 15 digits', () => {
    const inRange = fc
      .double({ min: -1e16, max: 1e16, noNaN: true })
      .filter((value) => value === 0 || (Math.abs(value) >= 1e-10 && Math.abs(value) < 1e16));
    const text = fc
      .oneof(
        inRange.map((value) => String(value)),
        inRange.map((value) => value.toExponential()),
        inRange.map((value) => value.toPrecision(17)),
        inRange.filter((value) => Math.abs(value) >= 1e-8 && Math.abs(value) < 1e15).map((value) => value.toPrecision(19)),
        fc
          .float({ min: -1e6, max: 1e6, noNaN: true })
          .filter((value) => value === 0 || Math.abs(value) >= 1e-10)
          .map((value) => String(value)),
        fc
          .double({ noNaN: true, noDefaultInfinity: true })
          .filter((value) => value === 0 || (Math.abs(value) > 1e-300 && Math.abs(value) < 1e300))
          .map((value) => value.toPrecision(15)),
      )
      .map((each) => (/^-0(\.0*)?(e.*)?$/.test(each) ? each.slice(1) : each));
    fc.assert(
      fc.property(text, (each) => {
        expect(formatted(each)).toBe(String(Number(each)));
      }),
      { numRuns: 20_000, seed: 28_112_026 },
    );
  });

  it('writes either what JavaScript prints or nothing for any decimal', () => {
    const text = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.stringMatching(/^[1-9][0-9]{0,20}$/),
        fc.nat({ max: 21 }),
        fc.option(fc.integer({ min: -30, max: 30 })),
      )
      .map(
        ([sign, digits, point, exponent]) =>
          `${sign}${digits.slice(0, point)}.${digits.slice(point)}${exponent === null ? '' : `e${exponent}`}`,
      );
    fc.assert(
      fc.property(text, (each) => {
        const printed = formatted(each);
        if (printed !== undefined) expect(printed).toBe(String(Number(each)));
      }),
      { numRuns: 20_000, seed: 28_112_026 },
    );
  });
});
