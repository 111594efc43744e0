import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, ERROR_TABLE, fromZodIssues, isAppError, type TErrorCode } from './errors.js';

describe('AppError', () => {
  it('writes the grpc-gateway body with the Turnkey and Latchkey codes in its one detail', () => {
    const e = new AppError('ORGANIZATION_MISMATCH', 'organization mismatch', { field: 'organizationId' });
    expect(e.httpStatus).toBe(400);
    expect(e.toBody()).toEqual({
      code: 3,
      message: 'organization mismatch',
      details: [
        {
          '@type': 'type.googleapis.com/errors.v1.TurnkeyErrorDetail',
          turnkeyErrorCode: 'INVALID_ORGANIZATION_ID',
          latchkeyErrorCode: 'ORGANIZATION_MISMATCH',
          fields: { field: 'organizationId' },
        },
      ],
    });
  });

  it('leaves fields out of the detail when there are none', () => {
    expect(new AppError('INTERNAL', 'internal server error').toBody().details[0]).not.toHaveProperty('fields');
  });

  it.each(Object.keys(ERROR_TABLE) as TErrorCode[])('%s maps to a 4xx/5xx status and a non-OK gRPC code', (code) => {
    const e = new AppError(code, 'x');
    expect(isAppError(e)).toBe(true);
    expect(e.httpStatus).toBeGreaterThanOrEqual(400);
    expect(e.httpStatus).toBeLessThan(600);
    expect(e.toBody().code).toBeGreaterThan(0);
  });
});

describe('fromZodIssues', () => {
  it('lists the failing paths without echoing values', () => {
    const r = z.object({ name: z.string(), n: z.number() }).safeParse({ name: 7, n: 'secret-value' });
    const e = fromZodIssues('parameters', r.error!.issues);
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.message).toMatch(/^invalid parameters: name: .*; n: /);
    expect(e.message).not.toContain('secret-value');
    expect((e.fields as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual(['name', 'n']);
  });
});
