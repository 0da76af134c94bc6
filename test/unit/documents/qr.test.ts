import fc from 'fast-check';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { darkRuns, type QrModules, type QrRun, qrModules } from '../../../shared/pdf/qr';

/** A square matrix over a row-major array of 0/1, like qrcode's BitMatrix. */
function matrix(size: number, data: ArrayLike<number>): QrModules {
  return { size, get: (row, col) => data[row * size + col]! };
}

/**
 * The matrix the runs paint, cell by cell: how many runs cover each module.
 * A dropped, shortened, shifted or doubled run shows up as a cell that
 * differs from the source matrix.
 */
function paint(size: number, runs: readonly QrRun[]): number[] {
  const cells = new Array<number>(size * size).fill(0);
  for (const { row, col, length } of runs) {
    expect(length).toBeGreaterThan(0);
    expect(row).toBeGreaterThanOrEqual(0);
    expect(row).toBeLessThan(size);
    expect(col).toBeGreaterThanOrEqual(0);
    expect(col + length).toBeLessThanOrEqual(size);
    for (let c = col; c < col + length; c++) cells[row * size + c]! += 1;
  }
  return cells;
}

/** Runs of one row never touch: each one is as long as the dark stretch it stands for. */
function expectMaximal(runs: readonly QrRun[]): void {
  for (let i = 1; i < runs.length; i++) {
    const a = runs[i - 1]!;
    const b = runs[i]!;
    if (a.row === b.row) expect(b.col, `row ${b.row}`).toBeGreaterThan(a.col + a.length);
    else expect(b.row).toBeGreaterThan(a.row);
  }
}

describe('darkRuns', () => {
  it('paints back exactly the modules of real ficha QR codes, each dark module once', () => {
    for (const url of [
      'http://127.0.0.1:8080/d/Zx81kPq0aB7cD9eF3gH5Zx81kPq0aB7c',
      'https://deca.example.es/d/Zx81kPq0aB7cD9eF3gH5Zx81kPq0aB7c',
      `https://transportes-muy-largo.example.es/ficha/${'a1b2c3d4'.repeat(12)}?token=${'Zz9'.repeat(10)}`,
    ]) {
      const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
      const modules = qrModules(url);
      // The same code as the PNG endpoints serve.
      expect(modules.size).toBe(qr.modules.size);
      const runs = darkRuns(modules);
      expect(paint(modules.size, runs), url).toEqual([...qr.modules.data]);
      expectMaximal(runs);
      // Fewer shapes than dark modules is the point of runs.
      expect(runs.length).toBeLessThan(qr.modules.data.reduce((sum, m) => sum + m, 0));
    }
  });

  it('handles the edge cases: all light, all dark, runs touching both edges, a checkerboard', () => {
    expect(darkRuns(matrix(3, [0, 0, 0, 0, 0, 0, 0, 0, 0]))).toEqual([]);
    expect(darkRuns(matrix(2, [1, 1, 1, 1]))).toEqual([
      { row: 0, col: 0, length: 2 },
      { row: 1, col: 0, length: 2 },
    ]);
    expect(darkRuns(matrix(4, [1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0]))).toEqual([
      { row: 0, col: 0, length: 1 },
      { row: 0, col: 3, length: 1 },
      { row: 1, col: 1, length: 2 },
      { row: 2, col: 0, length: 2 },
      { row: 2, col: 3, length: 1 },
    ]);
    expect(darkRuns(matrix(1, [1]))).toEqual([{ row: 0, col: 0, length: 1 }]);
  });

  // 300 random matrices up to 40×40: seconds of CPU, more on a loaded machine.
  it('paints back any matrix exactly, with maximal runs', { timeout: 30_000 }, () => {
    const matrices = fc.integer({ min: 1, max: 40 }).chain((size) => fc.array(fc.integer({ min: 0, max: 1 }), { minLength: size * size, maxLength: size * size }).map((data) => ({ size, data })));
    fc.assert(
      fc.property(matrices, ({ size, data }) => {
        const runs = darkRuns(matrix(size, data));
        expect(paint(size, runs)).toEqual(data);
        expectMaximal(runs);
      }),
      { numRuns: 300 },
    );
  });
});
