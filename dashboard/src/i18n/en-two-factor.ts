/** English texts of two-factor sign-in: the sign-in's code step, enrolment and the settings section (see en.ts). */
export const enTwoFactor = {
  twoFactor: 'Two-factor sign-in',
  twoFactorIntro:
    'Ask for a code from an authenticator app (Google Authenticator, Aegis, 1Password…) after your password.',
  twoFactorOn: 'On since {date}. Recovery codes left: {n}.',
  twoFactorOff: 'Off: your password alone signs you in.',
  twoFactorRequiredNote: 'Your account requires two-factor sign-in of every member.',
  twoFactorEnable: 'Turn on two-factor sign-in',
  twoFactorScan: 'Scan this QR code with your authenticator app, or type the key in by hand.',
  twoFactorQrAlt: 'QR code to add this account to an authenticator app',
  twoFactorKey: 'Key',
  twoFactorCode: 'Code',
  twoFactorCodeHint: 'The 6 digits your app shows now.',
  twoFactorConfirm: 'Confirm',
  twoFactorRecoveryTitle: 'Your recovery codes',
  twoFactorRecoveryIntro:
    'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only this once.',
  twoFactorRecoverySaved: 'I have saved them',
  twoFactorDisable: 'Turn off',
  twoFactorDisableHint: 'A code from your app, or a recovery code.',
  twoFactorRequireTitle: 'Require two-factor sign-in',
  twoFactorRequireIntro:
    'Every member must use two-factor sign-in. Members without it are sent to set it up at their next sign-in, and signed out now.',
  twoFactorRequireOn: 'Require it of everyone',
  twoFactorRequireOff: 'Stop requiring it',
  twoFactorRequireOwnFirst: 'Turn on your own two-factor sign-in first.',
  signInCodeTitle: 'Enter your code',
  signInCodeIntro: 'Open your authenticator app and type the 6-digit code, or use a recovery code.',
  signInCodeWrong: 'Wrong code: try the next one your app shows.',
  signInVerify: 'Verify',
  signInBack: 'Back',
  signInSetupTitle: 'Set up two-factor sign-in',
  signInSetupIntro: 'Your account requires two-factor sign-in. Set it up now, then sign in again.',
  signInSetupDone: 'Two-factor sign-in is on. Sign in again with your password and a code.',
} as const;

export type TwoFactorKey = keyof typeof enTwoFactor;
