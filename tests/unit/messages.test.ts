import { describe, expect, it } from 'vitest';
import { getServerT } from '../../app/i18n.server';
import { rateLimitedMessage, retryMinutes } from '../../app/lib/messages';

describe('rate-limit message', () => {
  it('counts whole minutes, rounded up, at least one', () => {
    expect(retryMinutes(0)).toBe(1);
    expect(retryMinutes(1)).toBe(1);
    expect(retryMinutes(60)).toBe(1);
    expect(retryMinutes(61)).toBe(2);
    expect(retryMinutes(47 * 60 - 5)).toBe(47);
  });

  it('uses the German plural: "1 Minute", "47 Minuten"', async () => {
    const t = await getServerT(['account', 'auth']);
    expect(rateLimitedMessage(t, 30)).toBe('Zu viele Versuche. Bitte warten Sie 1 Minute und versuchen Sie es dann erneut.');
    expect(rateLimitedMessage(t, 47 * 60)).toBe('Zu viele Versuche. Bitte warten Sie 47 Minuten und versuchen Sie es dann erneut.');
    expect(rateLimitedMessage(t, 90)).toBe('Zu viele Versuche. Bitte warten Sie 2 Minuten und versuchen Sie es dann erneut.');
    expect(rateLimitedMessage(t, 3600)).not.toMatch(/Minute\(n\)/);
  });
});
