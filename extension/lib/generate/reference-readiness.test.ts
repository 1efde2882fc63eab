import { describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { emptyForm, type GenerateForm } from '@/lib/generate/generate-form';
import { type AssetReadiness, readinessProblems } from '@/lib/generate/reference-readiness';

const S2 = modelSpec('doubao-seedance-2-0-260128');

const form = (): GenerateForm => ({
  ...emptyForm(S2.id),
  prompt: 'A cat',
  references: [
    { id: 'r1', kind: 'image', role: 'reference_image', source: 'url', url: 'https://cdn.example.com/a.png', label: 'a.png' },
    { id: 'r2', kind: 'image', role: 'reference_image', source: 'library', url: 'asset://asset-cat', label: 'Cat', assetId: 'asset-cat' },
  ],
});

const known = (asset: Extract<AssetReadiness, { state: 'known' }>['asset']): Map<string, AssetReadiness> => new Map([['asset-cat', { state: 'known', asset, at: 0 }]]);

describe('readinessProblems', () => {
  it('none for an asset Active for the model, or not checked yet, or not checkable', () => {
    expect(readinessProblems(form(), S2, known({ Status: 'Active', ModelReadiness: [{ Models: [S2.id], Status: 'Active' }] }))).toEqual([]);
    expect(readinessProblems(form(), S2, new Map())).toEqual([]);
    expect(readinessProblems(form(), S2, new Map([['asset-cat', { state: 'unknown', at: 0 }]]))).toEqual([]);
  });

  it('names the reference row of an asset still getting ready for the model', () => {
    const [problem, ...rest] = readinessProblems(form(), S2, known({ Status: 'Active', ModelReadiness: [{ Models: [S2.id], Status: 'Processing' }] }));
    expect(rest).toEqual([]);
    expect(problem).toEqual({
      target: { kind: 'reference', index: 1, id: 'r2' },
      field: 'content[2]',
      reason: 'Not ready for Seedance 2.0 yet (Processing). Checking again every few seconds.',
      message: 'Reference image 2: Not ready for Seedance 2.0 yet (Processing). Checking again every few seconds.',
    });
  });

  it('says when the model can never use it, with the service’s reason', () => {
    const [problem] = readinessProblems(form(), S2, known({ Status: 'Active', ModelReadiness: [{ Models: [S2.id], Status: 'Unavailable', Error: { Message: 'Not for this model.' } }] }));
    expect(problem!.reason).toBe('Cannot be used with Seedance 2.0 (Unavailable). Not for this model.');
    const [failed] = readinessProblems(form(), S2, known({ Status: 'Failed' }));
    expect(failed!.reason).toBe('Cannot be used with Seedance 2.0 (Failed).');
  });
});
