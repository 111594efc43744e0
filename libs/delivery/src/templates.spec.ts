import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TemplateError,
  escapeHtml,
  parseTemplateVariables,
  renderEmailAuthEmail,
  renderInvitationEmail,
  renderOtpEmail,
  renderOtpSms,
  renderRecoveryEmail,
  type TCustomEmailTemplate,
} from './templates.js';

const base = { appName: 'Acme Wallet', code: 'K7Q2M9XW3', expiresInSeconds: 300 };
const BUNDLE = '4tHmEKzQ5vGqz8oZbtq2VQ9B1kx7PsqHNw3fJm8yR6cTdLpYbW2aX5uE9sKjC1gF'.repeat(3);

function errorOf(f: () => unknown): TemplateError {
  try {
    f();
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  throw new Error('expected a TemplateError');
}

describe('renderOtpEmail', () => {
  it('puts the code and the expiry in text and html, never in the subject', () => {
    const r = renderOtpEmail(base);
    expect(r.subject).toBe('Your Acme Wallet verification code');
    expect(r.subject).not.toContain(base.code);
    expect(r.text).toContain(base.code);
    expect(r.text).toContain('5 minutes');
    expect(r.html).toContain(`>${base.code}</p>`);
    expect(r.from).toBeUndefined();
    expect(r.replyTo).toBeUndefined();
  });

  it('HTML-escapes the app name and the logo URL', () => {
    const r = renderOtpEmail({ ...base, appName: '<script>alert("x")</script> & Co', emailCustomization: { logoUrl: 'https://cdn.example/logo.png?a=1&b="2"' } });
    expect(r.html).not.toContain('<script>');
    expect(r.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co');
    expect(r.html).toContain('src="https://cdn.example/logo.png?a=1&#38;b=%222%22"');
    // The text part is plain text: no escaping there.
    expect(r.text).toContain('<script>alert("x")</script> & Co');
  });

  it('fills the magic link with the URL-encoded code, http(s) only', () => {
    const r = renderOtpEmail({ ...base, emailCustomization: { magicLinkTemplate: 'https://app.example/verify?otp=%s&src=mail' } });
    expect(r.text).toContain('https://app.example/verify?otp=K7Q2M9XW3&src=mail');
    expect(r.html).toContain('href="https://app.example/verify?otp=K7Q2M9XW3&#38;src=mail"');
    for (const bad of ['javascript:alert(%s)', 'data:text/html,%s', 'https://app.example/no-placeholder', 'not a url %s']) {
      const e = errorOf(() => renderOtpEmail({ ...base, emailCustomization: { magicLinkTemplate: bad } }));
      expect(e.reason).toBe('INVALID_URL');
      expect(e.field).toBe('emailCustomization.magicLinkTemplate');
      expect(e.message).not.toContain(base.code);
    }
    expect(errorOf(() => renderOtpEmail({ ...base, emailCustomization: { logoUrl: 'javascript:alert(1)' } })).field).toBe('emailCustomization.logoUrl');
  });

  it('honours the sender fields and refuses header injection', () => {
    const r = renderOtpEmail({ ...base, sendFromEmailAddress: 'login@acme.test', sendFromEmailSenderName: 'Acme Login', replyToEmailAddress: 'help@acme.test' });
    expect(r.from).toEqual({ address: 'login@acme.test', name: 'Acme Login' });
    expect(r.replyTo).toBe('help@acme.test');
    expect(renderOtpEmail({ ...base, sendFromEmailSenderName: 'Only A Name' }).from).toEqual({ name: 'Only A Name' });
    expect(errorOf(() => renderOtpEmail({ ...base, sendFromEmailAddress: 'a@b.test\r\nBcc: victim@x.test' })).field).toBe('sendFromEmailAddress');
    expect(errorOf(() => renderOtpEmail({ ...base, sendFromEmailSenderName: 'Evil\r\nBcc: victim@x.test' })).reason).toBe('INVALID_ADDRESS');
    expect(errorOf(() => renderOtpEmail({ ...base, replyToEmailAddress: 'nope' })).field).toBe('replyToEmailAddress');
  });

  it('validates templateVariables even without a templateId', () => {
    for (const bad of ['{', '[]', '"s"', '{"n": 1}', '{"bad key": "v"}', 'null']) {
      const e = errorOf(() => renderOtpEmail({ ...base, emailCustomization: { templateVariables: bad } }));
      expect(e.reason).toBe('INVALID_TEMPLATE_VARIABLES');
      expect(e.field).toBe('emailCustomization.templateVariables');
    }
    expect(() => renderOtpEmail({ ...base, emailCustomization: { templateVariables: '{"greeting":"Hi"}' } })).not.toThrow();
  });

  it('renders a custom template by templateId with escaped variables; built-ins win over templateVariables', () => {
    const templates: Record<string, TCustomEmailTemplate> = {
      welcome: { subject: '{{.AppName}} — {{greeting}}', text: '{{greeting}}, your code is {{.OtpCode}} ({{expiresInMinutes}} min)', html: '<p>{{greeting}}: <b>{{code}}</b> {{magicLink}}</p>' },
    };
    const r = renderOtpEmail({
      ...base,
      emailCustomization: { templateId: 'welcome', templateVariables: JSON.stringify({ greeting: '<Hello>', code: 'FAKE' }), magicLinkTemplate: 'https://a.test/%s' },
      resolveTemplate: (id) => templates[id],
    });
    expect(r.subject).toBe('Acme Wallet — <Hello>');
    expect(r.text).toBe('<Hello>, your code is K7Q2M9XW3 (5 min)');
    expect(r.html).toBe('<p>&#60;Hello&#62;: <b>K7Q2M9XW3</b> https://a.test/K7Q2M9XW3</p>');
  });

  it('refuses unknown templates, unknown placeholders and secrets in a custom subject', () => {
    const resolveTemplate = (id: string): TCustomEmailTemplate | undefined =>
      ({ leaky: { subject: 'Code {{code}}', text: '{{code}}' }, typo: { subject: 'Hi', text: '{{.OtpKode}}' } })[id];
    expect(errorOf(() => renderOtpEmail({ ...base, emailCustomization: { templateId: 'nope' }, resolveTemplate })).reason).toBe('UNKNOWN_TEMPLATE');
    expect(errorOf(() => renderOtpEmail({ ...base, emailCustomization: { templateId: 'nope' } })).reason).toBe('UNKNOWN_TEMPLATE');
    const leaky = errorOf(() => renderOtpEmail({ ...base, emailCustomization: { templateId: 'leaky' }, resolveTemplate }));
    expect(leaky.reason).toBe('INVALID_TEMPLATE');
    expect(leaky.message).toContain('subject');
    expect(errorOf(() => renderOtpEmail({ ...base, emailCustomization: { templateId: 'typo' }, resolveTemplate })).message).toContain('{{OtpKode}}');
  });

  it('checks its own arguments', () => {
    expect(errorOf(() => renderOtpEmail({ ...base, appName: ' ' })).field).toBe('appName');
    expect(errorOf(() => renderOtpEmail({ ...base, code: 'ab cd' })).field).toBe('code');
    expect(errorOf(() => renderOtpEmail({ ...base, expiresInSeconds: 0 })).field).toBe('expiresInSeconds');
  });
});

describe('renderOtpSms', () => {
  it('has a default wording with the code and the expiry', () => {
    expect(renderOtpSms(base).body).toBe('K7Q2M9XW3 is your Acme Wallet verification code. It expires in 5 minutes.');
  });

  it("fills Turnkey's {{.OtpCode}} and the {{code}} alias", () => {
    expect(renderOtpSms({ ...base, smsCustomization: { template: '{{.AppName}} code: {{.OtpCode}}' } }).body).toBe('Acme Wallet code: K7Q2M9XW3');
    expect(renderOtpSms({ ...base, smsCustomization: { template: 'Code {{ code }} for {{appName}}, {{expiresInMinutes}} min' } }).body).toBe('Code K7Q2M9XW3 for Acme Wallet, 5 min');
  });

  it('refuses a template without the code or with unknown placeholders', () => {
    expect(errorOf(() => renderOtpSms({ ...base, smsCustomization: { template: 'Welcome to {{.AppName}}' } })).message).toContain('{{.OtpCode}}');
    expect(errorOf(() => renderOtpSms({ ...base, smsCustomization: { template: '{{.OtpCode}} {{.Secret}}' } })).reason).toBe('INVALID_TEMPLATE');
    expect(errorOf(() => renderOtpSms({ ...base, smsCustomization: { template: '{{.OtpCode}}'.padEnd(1700, 'x') } })).field).toBe('smsCustomization.template');
  });
});

describe('renderRecoveryEmail and renderEmailAuthEmail', () => {
  it('carry the credential bundle, in full, in text and html', () => {
    for (const render of [renderRecoveryEmail, renderEmailAuthEmail]) {
      const r = render({ appName: 'Acme Wallet', credentialBundle: BUNDLE, expiresInSeconds: 900 });
      expect(r.text).toContain(BUNDLE);
      expect(r.html).toContain(BUNDLE);
      expect(r.subject).not.toContain(BUNDLE);
      expect(r.text).toContain('15 minutes');
    }
    expect(renderRecoveryEmail({ credentialBundle: BUNDLE }).subject).toBe('Recover your Latchkey account');
    expect(renderEmailAuthEmail({ credentialBundle: BUNDLE, emailCustomization: { appName: 'Acme' } }).subject).toBe('Sign in to Acme');
  });

  it('fill the magic link with the bundle', () => {
    const r = renderEmailAuthEmail({ appName: 'Acme', credentialBundle: BUNDLE, emailCustomization: { magicLinkTemplate: 'https://acme.test/auth?bundle=%s' } });
    expect(r.text).toContain(`https://acme.test/auth?bundle=${BUNDLE}`);
  });

  it('refuse a bundle that is not base58/base64/hex text', () => {
    expect(errorOf(() => renderRecoveryEmail({ credentialBundle: '<b>x</b>' })).field).toBe('credentialBundle');
  });
});

describe('escaping (properties)', () => {
  it('escapeHtml leaves no markup character and is reversible', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const e = escapeHtml(s);
        expect(e).not.toMatch(/[<>"']/);
        const back = e.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
        expect(back).toBe(s);
      }),
    );
  });

  it('no app name can open a tag in the OTP e-mail', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }).filter((s) => s.trim() !== '' && !/[\x00-\x1f\x7f]/.test(s)), (appName) => {
        const html = renderOtpEmail({ ...base, appName }).html;
        const tags = html.match(/<[a-z!/][^>]*>/gi) ?? [];
        const allowed = /^<(!doctype html|\/?(html|body|div|p|h2|a|b)\b[^>]*)>$/i;
        for (const t of tags) expect(t).toMatch(allowed);
      }),
    );
  });

  it('parseTemplateVariables round-trips every object of strings', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), fc.string({ maxLength: 50 }), { maxKeys: 10 }), (vars) => {
        expect({ ...parseTemplateVariables(JSON.stringify(vars)) }).toEqual(vars);
      }),
    );
  });
});

describe('renderInvitationEmail', () => {
  const input = { invitationId: '01a2-inv', organizationName: 'Acme <Ops>', senderUserName: 'Alice', receiverUserName: 'Bob' };

  it('names the organization, the sender and the receiver, and carries the invitation id; HTML escaped', () => {
    const m = renderInvitationEmail(input);
    expect(m.subject).toBe('You are invited to Acme <Ops>');
    expect(m.text).toContain('Hello Bob, Alice invited you to join Acme <Ops>.');
    expect(m.text).toContain('01a2-inv');
    expect(m.html).toContain('Acme &#60;Ops&#62;');
    expect(m.html).not.toContain('<Ops>');
  });

  it('refuses a name with a line break (it would break the subject)', () => {
    expect(() => renderInvitationEmail({ ...input, organizationName: 'Acme\nBcc: x' })).toThrow(TemplateError);
    expect(() => renderInvitationEmail({ ...input, senderUserName: '' })).toThrow(/senderUserName/);
  });
});
