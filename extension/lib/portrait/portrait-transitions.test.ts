import { describe, expect, it } from 'vitest';
import { AUTO_RENEWALS, expiryOf, type PortraitEvent, type PortraitState, transition } from '@/lib/portrait/portrait-transitions';

describe('portrait transitions', () => {
  const SESSION = { H5Link: 'https://h5', PartnerToken: 'ph_1', ExpiresIn: 300, ExpireTime: '2026-11-22T09:05:00Z' };
  const everyEvent: PortraitEvent[] = [
    { type: 'agree', continuous: false },
    { type: 'consented' },
    { type: 'consentFailed', problem: { message: 'x' } },
    { type: 'created', session: SESSION, now: 0 },
    { type: 'createFailed', problem: { message: 'x' } },
    { type: 'pending' },
    { type: 'unsteady', problem: { message: 'x' } },
    { type: 'expired' },
    { type: 'resolved', resolved: { GroupId: 'g', GroupName: 'n', GroupDescription: '' } },
    { type: 'pollFailed', problem: { message: 'x' } },
    { type: 'stored', group: { id: 'g', name: 'n', description: '', type: 'LivenessFace', usedAt: 0 }, assets: [] },
    { type: 'storeFailed', problem: { message: 'x' } },
    { type: 'cancel' },
    { type: 'renew' },
    { type: 'retry' },
    { type: 'done' },
  ];

  it('the consent gate: from the rules, only agreeing moves on, and only to recording the consent', () => {
    const rules: PortraitState = { kind: 'rules' };
    for (const event of everyEvent) {
      const next = transition(rules, event);
      if (event.type === 'agree') expect(next).toEqual({ kind: 'consenting', continuous: false });
      else expect(next, event.type).toBe(rules);
    }
  });

  it('the consent gate: while the consent is being recorded, nothing but its answer (or cancel) moves on; a failure returns to the rules', () => {
    const consenting: PortraitState = { kind: 'consenting', continuous: true };
    for (const event of everyEvent) {
      const next = transition(consenting, event);
      if (event.type === 'consented') expect(next).toEqual({ kind: 'creating', continuous: true, renewals: 0 });
      else if (event.type === 'consentFailed') expect(next).toEqual({ kind: 'rules', problem: { message: 'x' } });
      else if (event.type === 'cancel') expect(next).toEqual({ kind: 'rules' });
      else expect(next, event.type).toBe(consenting);
    }
  });

  it('a code expires into a fresh one at most AUTO_RENEWALS times, then stops in expired', () => {
    let state: PortraitState = { kind: 'creating', continuous: false, renewals: 0 };
    for (let i = 0; i < AUTO_RENEWALS; i++) {
      state = transition(state, { type: 'created', session: SESSION, now: 0 });
      state = transition(state, { type: 'expired' });
      expect(state).toEqual({ kind: 'creating', continuous: false, renewals: i + 1 });
    }
    state = transition(transition(state, { type: 'created', session: SESSION, now: 0 }), { type: 'expired' });
    expect(state).toEqual({ kind: 'expired', continuous: false });
    expect(transition(state, { type: 'renew' })).toEqual({ kind: 'creating', continuous: false, renewals: 0 });
  });

  it('pending gives a new showing state (the next check) for the same code', () => {
    const state = transition({ kind: 'creating', continuous: false, renewals: 0 }, { type: 'created', session: SESSION, now: 1000 });
    const next = transition(state, { type: 'pending' });
    expect(next).not.toBe(state);
    expect(next).toEqual(state);
  });

  it('counts the expiry from ExpiresIn on arrival (clock skew), else ExpireTime', () => {
    expect(expiryOf(SESSION, 1_000)).toBe(301_000);
    expect(expiryOf({ ...SESSION, ExpiresIn: undefined as never }, 0)).toBe(Date.parse('2026-11-22T09:05:00Z'));
  });
});
