import twilio from 'twilio';
import type { SmsSender } from '../../modules/messaging/sms-sender.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
}

/** Real SMS through Twilio's official SDK (SMS_PROVIDER=twilio). */
export function createTwilioSmsSender(
  settings: TwilioSettings,
  client = twilio(settings.accountSid, settings.authToken),
): SmsSender {
  return {
    async send(to, body) {
      await client.messages.create({ to, from: settings.from, body });
    },
  };
}
