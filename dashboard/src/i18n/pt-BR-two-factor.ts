import type { TwoFactorKey } from './en-two-factor';

export const ptBRTwoFactor: Record<TwoFactorKey, string> = {
  twoFactor: 'Login em duas etapas',
  twoFactorIntro:
    'Peça um código de um app autenticador (Google Authenticator, Aegis, 1Password…) depois da sua senha.',
  twoFactorOn: 'Ativado desde {date}. Códigos de recuperação restantes: {n}.',
  twoFactorOff: 'Desativado: só a senha faz o seu login.',
  twoFactorRequiredNote: 'Sua conta exige o login em duas etapas de todos os membros.',
  twoFactorEnable: 'Ativar o login em duas etapas',
  twoFactorScan: 'Escaneie este QR code com o seu app autenticador, ou digite a chave à mão.',
  twoFactorQrAlt: 'QR code para adicionar esta conta a um app autenticador',
  twoFactorKey: 'Chave',
  twoFactorCode: 'Código',
  twoFactorCodeHint: 'Os 6 dígitos que o seu app mostra agora.',
  twoFactorConfirm: 'Confirmar',
  twoFactorRecoveryTitle: 'Seus códigos de recuperação',
  twoFactorRecoveryIntro:
    'Cada código faz o seu login uma vez se você perder o celular. Guarde-os em lugar seguro: eles aparecem só desta vez.',
  twoFactorRecoverySaved: 'Já guardei',
  twoFactorDisable: 'Desativar',
  twoFactorDisableHint: 'Um código do seu app, ou um código de recuperação.',
  twoFactorRequireTitle: 'Exigir o login em duas etapas',
  twoFactorRequireIntro:
    'Todos os membros deverão usá-lo. Quem não tiver precisará configurá-lo no próximo login, e a sessão termina agora.',
  twoFactorRequireOn: 'Exigir de todos',
  twoFactorRequireOff: 'Deixar de exigir',
  twoFactorRequireOwnFirst: 'Ative primeiro o seu próprio login em duas etapas.',
  signInCodeTitle: 'Digite o seu código',
  signInCodeIntro:
    'Abra o seu app autenticador e digite o código de 6 dígitos, ou use um código de recuperação.',
  signInCodeWrong: 'Código errado: tente o próximo que o seu app mostrar.',
  signInVerify: 'Verificar',
  signInBack: 'Voltar',
  signInSetupTitle: 'Configure o login em duas etapas',
  signInSetupIntro: 'Sua conta exige o login em duas etapas. Configure agora e depois entre de novo.',
  signInSetupDone: 'O login em duas etapas está ativado. Entre de novo com a sua senha e um código.',
};
