/**
 * The smallest environment `loadConfig` accepts in production, for tests of what production mode changes: a real
 * secret, a real SMS provider (fake credentials: nothing is sent), the operator's identity, and the sandbox payments.
 */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-secret-that-is-long-enough-123',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM: '+15005550006',
  COMPANY_NAME: 'Tipcard SIA',
  COMPANY_REGISTRATION_NUMBER: '40000000000',
  COMPANY_ADDRESS: 'Brīvības iela 1, Rīga, LV-1010',
  SUPPORT_EMAIL: 'support@tipcard.example',
  SANDBOX_PAYMENTS: '1',
} as const;
