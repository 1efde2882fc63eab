import { describe, expect, it } from 'vitest';
import { check } from './validation';
import { isExtensionRedirect, memberScopeChangeSchema, tokenCreateSchema } from './member-identity';

/** The shapes and rules of member identity (docs/identity.md) every side shares. */

describe('isExtensionRedirect', () => {
  const chrome = `https://${'a'.repeat(32)}.chromiumapp.org/`;
  const firefox = `https://${'0a'.repeat(20)}.extensions.allizom.org/`;

  it.each([chrome, `${chrome}signed-in?x=1`, firefox, `${firefox}cb`])('takes %s', (url) => expect(isExtensionRedirect(url)).toBe(true));

  it.each([
    ['another site', 'https://example.com/'],
    ['a look-alike host', `https://${'a'.repeat(32)}.chromiumapp.org.evil.example/`],
    ['an id of the wrong letters', `https://${'z'.repeat(32)}.chromiumapp.org/`],
    ['an id of the wrong length', `https://${'a'.repeat(31)}.chromiumapp.org/`],
    ['plain http', `http://${'a'.repeat(32)}.chromiumapp.org/`],
    ['a user name', `https://me@${'a'.repeat(32)}.chromiumapp.org/`],
    ['a port', `https://${'a'.repeat(32)}.chromiumapp.org:444/`],
    ['a fragment', `${chrome}#token=x`],
    ['an upper-case host', `https://${'A'.repeat(32)}.chromiumapp.org/`],
    ['something very long', `${chrome}${'x'.repeat(3000)}`],
  ])('refuses %s', (_what, url) => expect(isExtensionRedirect(url)).toBe(false));
});

describe('schemas', () => {
  it('a scope change names the field at fault', () => {
    expect(check(memberScopeChangeSchema, { models: ['a', 'a'] })).toMatchObject({ ok: false, problem: { field: 'models' } });
    expect(check(memberScopeChangeSchema, { expiresAt: 2 ** 40 })).toMatchObject({ ok: false, problem: { field: 'expiresAt' } });
    expect(check(memberScopeChangeSchema, {})).toEqual({ ok: true, value: {} });
  });

  it('a token label is trimmed, 1 to 64 characters', () => {
    expect(check(tokenCreateSchema, { label: '  Laptop ' })).toEqual({ ok: true, value: { label: 'Laptop' } });
    expect(check(tokenCreateSchema, { label: '   ' })).toMatchObject({ ok: false, problem: { field: 'label' } });
  });
});
