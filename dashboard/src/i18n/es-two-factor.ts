import type { TwoFactorKey } from './en-two-factor';

export const esTwoFactor: Record<TwoFactorKey, string> = {
  twoFactor: 'Inicio de sesión en dos pasos',
  twoFactorIntro:
    'Pide un código de una app de autenticación (Google Authenticator, Aegis, 1Password…) después de tu contraseña.',
  twoFactorOn: 'Activado desde {date}. Códigos de recuperación restantes: {n}.',
  twoFactorOff: 'Desactivado: tu contraseña sola inicia sesión.',
  twoFactorRequiredNote: 'Tu cuenta exige el inicio de sesión en dos pasos a todos los miembros.',
  twoFactorEnable: 'Activar el inicio de sesión en dos pasos',
  twoFactorScan: 'Escanea este código QR con tu app de autenticación, o escribe la clave a mano.',
  twoFactorQrAlt: 'Código QR para añadir esta cuenta a una app de autenticación',
  twoFactorKey: 'Clave',
  twoFactorCode: 'Código',
  twoFactorCodeHint: 'Los 6 dígitos que muestra tu app ahora.',
  twoFactorConfirm: 'Confirmar',
  twoFactorRecoveryTitle: 'Tus códigos de recuperación',
  twoFactorRecoveryIntro:
    'Cada código te deja entrar una vez si pierdes el teléfono. Guárdalos en un lugar seguro: solo se muestran esta vez.',
  twoFactorRecoverySaved: 'Ya los guardé',
  twoFactorDisable: 'Desactivar',
  twoFactorDisableHint: 'Un código de tu app, o un código de recuperación.',
  twoFactorRequireTitle: 'Exigir el inicio de sesión en dos pasos',
  twoFactorRequireIntro:
    'Todos los miembros deberán usarlo. Quienes no lo tengan deberán configurarlo en su próximo inicio de sesión, y su sesión termina ahora.',
  twoFactorRequireOn: 'Exigirlo a todos',
  twoFactorRequireOff: 'Dejar de exigirlo',
  twoFactorRequireOwnFirst: 'Activa primero tu propio inicio de sesión en dos pasos.',
  signInCodeTitle: 'Escribe tu código',
  signInCodeIntro:
    'Abre tu app de autenticación y escribe el código de 6 dígitos, o usa un código de recuperación.',
  signInCodeWrong: 'Código incorrecto: prueba el siguiente que muestre tu app.',
  signInVerify: 'Verificar',
  signInBack: 'Volver',
  signInSetupTitle: 'Configura el inicio de sesión en dos pasos',
  signInSetupIntro: 'Tu cuenta exige el inicio de sesión en dos pasos. Configúralo ahora y vuelve a entrar.',
  signInSetupDone:
    'El inicio de sesión en dos pasos está activado. Vuelve a entrar con tu contraseña y un código.',
};
