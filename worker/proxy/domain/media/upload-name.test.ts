import { describe, expect, it } from 'vitest';
import { uploadName } from './upload-handler';

/** Upload names (`POST /proxy/uploads?name=`) by the label rule (shared/labels.ts). */

describe('uploadName', () => {
  it('removes C1 controls too, normalises to NFC and trims', () => {
    expect(uploadName(' cafe\u0301\u0085\u009b.png\u0000 ')).toEqual({ ok: true, name: 'caf\u00E9.png' });
  });

  it('counts characters, not UTF-16 units: 200 emoji are a name, 201 are refused naming it', () => {
    expect(uploadName('\u{1F5BC}'.repeat(200))).toEqual({ ok: true, name: '\u{1F5BC}'.repeat(200) });
    expect(uploadName('\u{1F5BC}'.repeat(201))).toMatchObject({ ok: false, refusal: { status: 400, param: 'name', message: 'name: must be at most 200 characters.' } });
  });

  it('is none when nothing is left', () => {
    expect(uploadName('\u202E \u0007')).toEqual({ ok: true, name: null });
  });
});
