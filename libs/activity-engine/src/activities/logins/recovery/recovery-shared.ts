/**
 * Account recovery by e-mail. init_user_email_recovery (V2): a credential bundle holding a
 * recovery key (type RECOVER_USER, 15 minutes by default) is mailed to the user; that key can do
 * one thing — recover_user, which adds a new passkey to its own user and spends the key. Needs
 * FEATURE_NAME_EMAIL_RECOVERY on a sub-organization.
 */

/** The credential type a recovery key has; authentication lets it submit recover_user only. */
export const RECOVERY_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256';
