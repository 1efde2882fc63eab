import { describe, expect, it } from 'vitest';
import { failureEnvelope, isFailure, successEnvelope, type Envelope } from './envelope';

describe('successEnvelope', () => {
  it('carries the request id, action and the constants Version 2024-01-01, Service ark, Region cn-beijing', () => {
    const envelope = successEnvelope('req-1', 'CreateAssetGroup', { Id: 'g1' });
    expect(envelope.ResponseMetadata).toEqual({
      RequestId: 'req-1',
      Action: 'CreateAssetGroup',
      Version: '2024-01-01',
      Service: 'ark',
      Region: 'cn-beijing',
    });
  });

  it('puts the result under Result and sets no Error', () => {
    const envelope = successEnvelope('req-1', 'GetAssetGroup', { Id: 'g1', Name: 'n', Description: '', GroupType: 'AIGC' });
    expect(envelope.Result).toEqual({ Id: 'g1', Name: 'n', Description: '', GroupType: 'AIGC' });
    expect('Error' in envelope.ResponseMetadata).toBe(false);
  });

  it('keeps an empty object result for deletes', () => {
    expect(successEnvelope('r', 'DeleteAsset', {}).Result).toEqual({});
  });

  it('survives a JSON round trip unchanged', () => {
    const envelope = successEnvelope('r', 'ListAssets', { Items: [], TotalCount: 0, PageNumber: 1, PageSize: 20 });
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
  });
});

describe('failureEnvelope', () => {
  it('adds Error {Code, Message} to ResponseMetadata with the same constants', () => {
    const envelope = failureEnvelope('req-2', 'GetAsset', 'AccessDenied', 'no access');
    expect(envelope.ResponseMetadata).toEqual({
      RequestId: 'req-2',
      Action: 'GetAsset',
      Version: '2024-01-01',
      Service: 'ark',
      Region: 'cn-beijing',
      Error: { Code: 'AccessDenied', Message: 'no access' },
    });
  });

  it('has no Result', () => {
    expect('Result' in failureEnvelope('r', 'GetAsset', 'ValidationError', 'bad')).toBe(false);
  });

  it('accepts an action name outside the twelve (e.g. an unknown Action being rejected)', () => {
    expect(failureEnvelope('r', 'Nope', 'ValidationError', 'Action: unknown').ResponseMetadata.Action).toBe('Nope');
  });
});

describe('isFailure', () => {
  it('is true for a failure envelope', () => {
    expect(isFailure(failureEnvelope('r', 'ResolvePartnerToken', 'ValidationError', 'pending'))).toBe(true);
  });

  it('is false for a success envelope', () => {
    expect(isFailure(successEnvelope('r', 'CreateAsset', { Id: 'a' }))).toBe(false);
  });

  it('detects an Error in an envelope parsed from a 200 response body', () => {
    const parsed = JSON.parse(
      '{"ResponseMetadata":{"RequestId":"r","Action":"CreateAsset","Version":"2024-01-01","Service":"ark","Region":"cn-beijing","Error":{"Code":"ValidationError","Message":"URL"}}}',
    ) as Envelope<unknown>;
    expect(isFailure(parsed)).toBe(true);
  });

  it('is false (not a crash) for a body without ResponseMetadata', () => {
    expect(isFailure({} as Envelope<unknown>)).toBe(false);
  });

  it('narrows the type so the error code can be read', () => {
    const envelope: Envelope<{ Id: string }> = failureEnvelope('r', 'CreateAsset', 'AccessDenied', 'x');
    if (isFailure(envelope)) expect(envelope.ResponseMetadata.Error.Code).toBe('AccessDenied');
    else throw new Error('expected a failure');
  });
});
