/**
 * E-mail: the durable outbox features queue rendered messages in (`Outbox.queueMail`, inside the
 * transaction of the change that causes them), the worker that sends them (`MailWorker`), its
 * transports (SMTP through nodemailer, or `.eml` files) and settings. What other folders may use.
 */
export { DEFAULT_DELIVERY_POLICY, retryDelayMs, type DeliveryPolicy } from './delivery-policy.js';
export { checkedAddress, checkedMessage, type MailMessage } from './message.js';
export {
  MAIL_OUTCOMES,
  Outbox,
  type MailOutcome,
  type MailSealing,
  type MailTransaction,
  type QueuedMail,
} from './outbox.js';
export {
  mailHostOf,
  mailSettingsFromEnv,
  smtpSettingsFrom,
  type MailSettings,
  type TransportSettings,
} from './settings.js';
export { testMessage } from './test-message.js';
export { transportFor, type MailLog, type MailTransport, type OutgoingMail } from './transports.js';
export { MailWorker } from './worker.js';
