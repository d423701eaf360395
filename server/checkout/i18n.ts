/**
 * The checkout page's words, in every language it speaks. Shared by the server (page shell, error
 * pages) and the browser script (everything that changes live), so both always say the same.
 * Pure data and functions: no Node or DOM imports.
 */

import { LOCALES, type Locale } from '../../contract/locales';

export { LOCALES, type Locale };

const en = {
  title: 'Pay with stablecoins',
  payTo: 'Payment to {merchant}',
  payToUnknown: 'Payment request',
  amountDue: 'Amount to pay',
  amountTotal: 'Amount',
  quote: '{quote} at {rate}',
  received: 'Received so far: {amount}',
  statusHeading: 'Payment status',
  PENDING: 'Waiting for your payment',
  PENDING_hint: 'Pay with a wallet below. This page updates by itself.',
  CONFIRMING: 'Payment seen, waiting for confirmation',
  CONFIRMING_hint:
    'Your transaction is on the network. Confirmation can take a few minutes; keep this page open if you like.',
  UNDERPAID: 'Partly paid: {due} still to pay',
  UNDERPAID_hint: 'We received {received} of {amount}. Pay the rest before the time runs out.',
  PAID: 'Paid. Thank you!',
  PAID_hint: 'The payment is confirmed on the network. You can close this page.',
  PAID_LATE: 'Paid after the deadline',
  PAID_LATE_hint:
    'Your payment arrived after the payment window closed. It was received and the shop has been told.',
  EXPIRED: 'This payment request has expired',
  EXPIRED_hint:
    'Do not send anything to it any more. If you already paid, keep this page open: a late payment still shows up here. Otherwise ask the shop for a new link.',
  expiresIn: 'Time left to pay',
  expiredAt: 'Expired on {date}',
  paidAt: 'Paid on {date}',
  network: 'Network',
  token: 'Token',
  tokenContract: 'Token contract',
  tokenMint: 'Token mint',
  recipient: 'Recipient address',
  chooseOption: 'Pay with',
  optionName: '{token} on {network}',
  warnOptionNetwork: 'Send only on {network}; a transfer on another network is lost.',
  paidWith: 'Paid with {token} on {network}',
  warnNetwork: 'Send only {token} on {network}. Money sent on another network or in another token is lost.',
  payWithWallet: 'Pay with a browser wallet',
  payWith: 'Pay with {wallet}',
  noWallets: 'No browser wallet found for {network}. Use the QR code or the link with a mobile wallet.',
  walletWorking: 'Confirm the payment in {wallet}…',
  walletSent: 'Transaction sent: {tx}. Waiting for the network…',
  walletRejected: 'You cancelled the request in the wallet. Nothing was sent.',
  walletError: 'The wallet could not pay: {message}',
  scanQr: 'Pay with a mobile wallet',
  scanQrHint: 'Scan the QR code with your wallet app, or open the link on this device.',
  qrAlt: 'QR code of the payment link (its text is below)',
  openWallet: 'Open in wallet app',
  paymentLink: 'Payment link',
  copy: 'Copy',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyLink: 'Copy payment link',
  copied: 'Copied',
  browserWallet: 'Browser wallet',
  manual: 'Or send it yourself',
  transaction: 'Transaction',
  viewOnExplorer: 'View on {explorer}',
  backToShop: 'Back to the shop',
  reference: 'Order reference',
  lang: 'Language',
  errorTitle: 'Payment page not found',
  errorNotFound:
    'There is no payment with this link. Check that the link is complete, or ask the shop for a new one.',
  errorBadLink:
    'This payment link is not valid. Check that it was copied completely, or ask the shop for a new one.',
  errorOther: 'The payment page cannot be shown right now. Try again in a moment.',
  offline: 'Connection lost; retrying…',
  poweredBy: 'Secure stablecoin checkout',
  reportSummary: 'Already paid? Report your transaction',
  reportIntro:
    'Paid another way, for example from an exchange or from a wallet that did not use this page? Give the transaction so it can be credited to this order.',
  reportTxLabel: 'Transaction id',
  reportTxHintSolana:
    'The transaction signature, as your wallet or exchange shows it (about 88 letters and digits).',
  reportTxHintEvm:
    'The transaction hash, as your wallet or exchange shows it: 0x followed by 64 letters and digits.',
  reportTxHintTron:
    'The transaction ID, as TronLink, Tronscan or your exchange shows it: 64 letters and digits.',
  reportSignIntro:
    'Sign with the wallet that sent the payment to prove it is yours: it is then credited as soon as the network confirms it. Signing sends nothing and costs nothing.',
  reportSignWith: 'Sign with {wallet} to prove I sent it',
  reportSend: 'Report the transaction',
  reportSendUnsigned: 'Report without signing',
  reportUnsignedNote:
    "Without a signature, a transfer that does not carry this order's reference or its exact amount is credited only once the shop has checked it.",
  reportMissing: 'Paste the transaction id first.',
  reportSigning: 'Sign the message in {wallet}…',
  reportSending: 'Sending the report…',
  reportSignedDone:
    'Reported with your signature. The transaction is being checked on the network; this page shows the payment once it is confirmed.',
  reportUnsignedDone: 'Reported. The shop will check the transaction; you can close this page.',
  reportCredited: 'Your transaction was credited to this order.',
  reportRejected: 'You cancelled the signature in the wallet. Nothing was reported.',
  reportWalletError: 'The wallet could not sign: {message}',
  reportInvalid: 'This is not a transaction id on {network}. Check that you copied all of it.',
  reportConflict:
    'This transaction cannot be credited to this order: it was credited to another order, or this order can no longer be paid.',
  reportTooMany:
    'Other reports for this order are still being checked. Try again in a few minutes, or sign with the wallet that sent the payment.',
  reportFailed: 'The report could not be sent. Check the connection and try again.',
  sandboxBanner: 'Sandbox, no real money',
  sandboxBannerHint: 'This page runs on test networks: nothing paid here is worth anything.',
  sandboxPayTitle: 'Sandbox',
  sandboxPay: 'Pay with the sandbox wallet',
  sandboxPayHint: 'Sends exactly what is due from a test wallet, as a real wallet would.',
  sandboxPaying: 'Paying from the sandbox wallet…',
  sandboxSent: 'Sandbox payment sent (transaction {tx}). Waiting for the network…',
  sandboxFailed: 'The sandbox wallet could not pay: {message}',
} as const;

export type MessageKey = keyof typeof en;
type Messages = Record<MessageKey, string>;

const ptBR: Messages = {
  title: 'Pague com stablecoins',
  payTo: 'Pagamento para {merchant}',
  payToUnknown: 'Pedido de pagamento',
  amountDue: 'Valor a pagar',
  amountTotal: 'Valor',
  quote: '{quote} à cotação {rate}',
  received: 'Recebido até agora: {amount}',
  statusHeading: 'Situação do pagamento',
  PENDING: 'Aguardando seu pagamento',
  PENDING_hint: 'Pague com uma carteira abaixo. Esta página se atualiza sozinha.',
  CONFIRMING: 'Pagamento visto, aguardando confirmação',
  CONFIRMING_hint:
    'Sua transação está na rede. A confirmação pode levar alguns minutos; se quiser, mantenha esta página aberta.',
  UNDERPAID: 'Pago em parte: faltam {due}',
  UNDERPAID_hint: 'Recebemos {received} de {amount}. Pague o restante antes que o tempo acabe.',
  PAID: 'Pago. Obrigado!',
  PAID_hint: 'O pagamento está confirmado na rede. Você pode fechar esta página.',
  PAID_LATE: 'Pago após o prazo',
  PAID_LATE_hint: 'Seu pagamento chegou depois que o prazo terminou. Ele foi recebido e a loja foi avisada.',
  EXPIRED: 'Este pedido de pagamento expirou',
  EXPIRED_hint:
    'Não envie mais nada para ele. Se você já pagou, mantenha esta página aberta: um pagamento atrasado ainda aparece aqui. Caso contrário, peça um novo link à loja.',
  expiresIn: 'Tempo restante para pagar',
  expiredAt: 'Expirou em {date}',
  paidAt: 'Pago em {date}',
  network: 'Rede',
  token: 'Token',
  tokenContract: 'Contrato do token',
  tokenMint: 'Mint do token',
  recipient: 'Endereço de destino',
  chooseOption: 'Pagar com',
  optionName: '{token} na rede {network}',
  warnOptionNetwork: 'Envie somente pela rede {network}; uma transferência por outra rede se perde.',
  paidWith: 'Pago com {token} na rede {network}',
  warnNetwork:
    'Envie somente {token} na rede {network}. Valores enviados por outra rede ou em outro token serão perdidos.',
  payWithWallet: 'Pague com uma carteira do navegador',
  payWith: 'Pagar com {wallet}',
  noWallets:
    'Nenhuma carteira do navegador encontrada para {network}. Use o QR code ou o link com uma carteira no celular.',
  walletWorking: 'Confirme o pagamento em {wallet}…',
  walletSent: 'Transação enviada: {tx}. Aguardando a rede…',
  walletRejected: 'Você cancelou o pedido na carteira. Nada foi enviado.',
  walletError: 'A carteira não conseguiu pagar: {message}',
  scanQr: 'Pague com uma carteira no celular',
  scanQrHint: 'Escaneie o QR code com o app da sua carteira ou abra o link neste aparelho.',
  qrAlt: 'QR code do link de pagamento (o texto dele está abaixo)',
  openWallet: 'Abrir no app da carteira',
  paymentLink: 'Link de pagamento',
  copy: 'Copiar',
  copyAmount: 'Copiar valor',
  copyAddress: 'Copiar endereço',
  copyLink: 'Copiar link de pagamento',
  copied: 'Copiado',
  browserWallet: 'Carteira do navegador',
  manual: 'Ou envie você mesmo',
  transaction: 'Transação',
  viewOnExplorer: 'Ver no {explorer}',
  backToShop: 'Voltar para a loja',
  reference: 'Referência do pedido',
  lang: 'Idioma',
  errorTitle: 'Página de pagamento não encontrada',
  errorNotFound:
    'Não existe pagamento com este link. Verifique se o link está completo ou peça um novo à loja.',
  errorBadLink:
    'Este link de pagamento não é válido. Verifique se ele foi copiado por inteiro ou peça um novo à loja.',
  errorOther: 'A página de pagamento não pode ser exibida agora. Tente novamente em instantes.',
  offline: 'Conexão perdida; tentando de novo…',
  poweredBy: 'Checkout seguro com stablecoins',
  reportSummary: 'Já pagou? Informe sua transação',
  reportIntro:
    'Pagou de outro jeito, por exemplo de uma corretora ou de uma carteira que não usou esta página? Informe a transação para que ela seja creditada a este pedido.',
  reportTxLabel: 'ID da transação',
  reportTxHintSolana:
    'A assinatura da transação, como sua carteira ou corretora mostra (cerca de 88 letras e números).',
  reportTxHintEvm:
    'O hash da transação, como sua carteira ou corretora mostra: 0x seguido de 64 letras e números.',
  reportTxHintTron:
    'O ID da transação, como o TronLink, o Tronscan ou sua corretora mostra: 64 letras e números.',
  reportSignIntro:
    'Assine com a carteira que enviou o pagamento para provar que ele é seu: ele é creditado assim que a rede o confirmar. Assinar não envia nada e não custa nada.',
  reportSignWith: 'Assinar com {wallet} para provar que eu enviei',
  reportSend: 'Informar a transação',
  reportSendUnsigned: 'Informar sem assinar',
  reportUnsignedNote:
    'Sem assinatura, uma transferência que não traz a referência deste pedido nem o valor exato dele só é creditada depois que a loja a verificar.',
  reportMissing: 'Cole primeiro o ID da transação.',
  reportSigning: 'Assine a mensagem em {wallet}…',
  reportSending: 'Enviando o aviso…',
  reportSignedDone:
    'Informada com a sua assinatura. A transação está sendo verificada na rede; esta página mostra o pagamento assim que ele for confirmado.',
  reportUnsignedDone: 'Informada. A loja vai verificar a transação; você pode fechar esta página.',
  reportCredited: 'Sua transação foi creditada a este pedido.',
  reportRejected: 'Você cancelou a assinatura na carteira. Nada foi informado.',
  reportWalletError: 'A carteira não conseguiu assinar: {message}',
  reportInvalid: 'Isto não é um ID de transação na rede {network}. Verifique se você o copiou por inteiro.',
  reportConflict:
    'Esta transação não pode ser creditada a este pedido: ela foi creditada a outro pedido, ou este pedido não pode mais ser pago.',
  reportTooMany:
    'Outros avisos deste pedido ainda estão sendo verificados. Tente de novo em alguns minutos, ou assine com a carteira que enviou o pagamento.',
  reportFailed: 'O aviso não pôde ser enviado. Verifique a conexão e tente de novo.',
  sandboxBanner: 'Sandbox, sem dinheiro real',
  sandboxBannerHint: 'Esta página roda em redes de teste: nada pago aqui tem valor.',
  sandboxPayTitle: 'Sandbox',
  sandboxPay: 'Pagar com a carteira do sandbox',
  sandboxPayHint: 'Envia exatamente o valor devido de uma carteira de teste, como uma carteira real faria.',
  sandboxPaying: 'Pagando com a carteira do sandbox…',
  sandboxSent: 'Pagamento do sandbox enviado (transação {tx}). Aguardando a rede…',
  sandboxFailed: 'A carteira do sandbox não conseguiu pagar: {message}',
};

const es: Messages = {
  title: 'Paga con stablecoins',
  payTo: 'Pago a {merchant}',
  payToUnknown: 'Solicitud de pago',
  amountDue: 'Importe a pagar',
  amountTotal: 'Importe',
  quote: '{quote} al tipo {rate}',
  received: 'Recibido hasta ahora: {amount}',
  statusHeading: 'Estado del pago',
  PENDING: 'Esperando tu pago',
  PENDING_hint: 'Paga con una billetera abajo. Esta página se actualiza sola.',
  CONFIRMING: 'Pago recibido, esperando confirmación',
  CONFIRMING_hint:
    'Tu transacción está en la red. La confirmación puede tardar unos minutos; si quieres, deja esta página abierta.',
  UNDERPAID: 'Pagado en parte: faltan {due}',
  UNDERPAID_hint: 'Recibimos {received} de {amount}. Paga el resto antes de que se acabe el tiempo.',
  PAID: 'Pagado. ¡Gracias!',
  PAID_hint: 'El pago está confirmado en la red. Puedes cerrar esta página.',
  PAID_LATE: 'Pagado después del plazo',
  PAID_LATE_hint: 'Tu pago llegó después de que se cerrara el plazo. Se recibió y la tienda ha sido avisada.',
  EXPIRED: 'Esta solicitud de pago ha caducado',
  EXPIRED_hint:
    'No envíes nada más a ella. Si ya pagaste, deja esta página abierta: un pago tardío aún aparece aquí. Si no, pide un enlace nuevo a la tienda.',
  expiresIn: 'Tiempo restante para pagar',
  expiredAt: 'Caducó el {date}',
  paidAt: 'Pagado el {date}',
  network: 'Red',
  token: 'Token',
  tokenContract: 'Contrato del token',
  tokenMint: 'Mint del token',
  recipient: 'Dirección de destino',
  chooseOption: 'Pagar con',
  optionName: '{token} en la red {network}',
  warnOptionNetwork: 'Envía solo por la red {network}; una transferencia por otra red se pierde.',
  paidWith: 'Pagado con {token} en la red {network}',
  warnNetwork: 'Envía solo {token} en la red {network}. Lo enviado por otra red o en otro token se pierde.',
  payWithWallet: 'Paga con una billetera del navegador',
  payWith: 'Pagar con {wallet}',
  noWallets:
    'No se encontró ninguna billetera del navegador para {network}. Usa el código QR o el enlace con una billetera móvil.',
  walletWorking: 'Confirma el pago en {wallet}…',
  walletSent: 'Transacción enviada: {tx}. Esperando a la red…',
  walletRejected: 'Cancelaste la solicitud en la billetera. No se envió nada.',
  walletError: 'La billetera no pudo pagar: {message}',
  scanQr: 'Paga con una billetera móvil',
  scanQrHint: 'Escanea el código QR con la app de tu billetera o abre el enlace en este dispositivo.',
  qrAlt: 'Código QR del enlace de pago (su texto está debajo)',
  openWallet: 'Abrir en la app de la billetera',
  paymentLink: 'Enlace de pago',
  copy: 'Copiar',
  copyAmount: 'Copiar importe',
  copyAddress: 'Copiar dirección',
  copyLink: 'Copiar enlace de pago',
  copied: 'Copiado',
  browserWallet: 'Billetera del navegador',
  manual: 'O envíalo tú mismo',
  transaction: 'Transacción',
  viewOnExplorer: 'Ver en {explorer}',
  backToShop: 'Volver a la tienda',
  reference: 'Referencia del pedido',
  lang: 'Idioma',
  errorTitle: 'Página de pago no encontrada',
  errorNotFound:
    'No hay ningún pago con este enlace. Comprueba que el enlace esté completo o pide uno nuevo a la tienda.',
  errorBadLink:
    'Este enlace de pago no es válido. Comprueba que se copió entero o pide uno nuevo a la tienda.',
  errorOther: 'La página de pago no se puede mostrar ahora. Inténtalo de nuevo en un momento.',
  offline: 'Conexión perdida; reintentando…',
  poweredBy: 'Checkout seguro con stablecoins',
  reportSummary: '¿Ya pagaste? Informa tu transacción',
  reportIntro:
    '¿Pagaste de otra forma, por ejemplo desde un exchange o desde una billetera que no usó esta página? Indica la transacción para que se acredite a este pedido.',
  reportTxLabel: 'ID de la transacción',
  reportTxHintSolana:
    'La firma de la transacción, como la muestra tu billetera o exchange (unas 88 letras y números).',
  reportTxHintEvm:
    'El hash de la transacción, como lo muestra tu billetera o exchange: 0x seguido de 64 letras y números.',
  reportTxHintTron:
    'El ID de la transacción, como lo muestra TronLink, Tronscan o tu exchange: 64 letras y números.',
  reportSignIntro:
    'Firma con la billetera que envió el pago para probar que es tuyo: se acredita en cuanto la red lo confirme. Firmar no envía nada ni cuesta nada.',
  reportSignWith: 'Firmar con {wallet} para probar que lo envié',
  reportSend: 'Informar la transacción',
  reportSendUnsigned: 'Informar sin firmar',
  reportUnsignedNote:
    'Sin firma, una transferencia que no lleva la referencia de este pedido ni su importe exacto solo se acredita después de que la tienda la compruebe.',
  reportMissing: 'Pega primero el ID de la transacción.',
  reportSigning: 'Firma el mensaje en {wallet}…',
  reportSending: 'Enviando el aviso…',
  reportSignedDone:
    'Informada con tu firma. La transacción se está comprobando en la red; esta página muestra el pago en cuanto se confirme.',
  reportUnsignedDone: 'Informada. La tienda comprobará la transacción; puedes cerrar esta página.',
  reportCredited: 'Tu transacción se acreditó a este pedido.',
  reportRejected: 'Cancelaste la firma en la billetera. No se informó nada.',
  reportWalletError: 'La billetera no pudo firmar: {message}',
  reportInvalid: 'Esto no es un ID de transacción en la red {network}. Comprueba que lo copiaste entero.',
  reportConflict:
    'Esta transacción no se puede acreditar a este pedido: se acreditó a otro pedido, o este pedido ya no se puede pagar.',
  reportTooMany:
    'Otros avisos de este pedido aún se están comprobando. Inténtalo de nuevo en unos minutos, o firma con la billetera que envió el pago.',
  reportFailed: 'No se pudo enviar el aviso. Comprueba la conexión e inténtalo de nuevo.',
  sandboxBanner: 'Sandbox, sin dinero real',
  sandboxBannerHint: 'Esta página funciona en redes de prueba: nada de lo que se pague aquí tiene valor.',
  sandboxPayTitle: 'Sandbox',
  sandboxPay: 'Pagar con la billetera del sandbox',
  sandboxPayHint:
    'Envía exactamente lo adeudado desde una billetera de prueba, como lo haría una billetera real.',
  sandboxPaying: 'Pagando con la billetera del sandbox…',
  sandboxSent: 'Pago del sandbox enviado (transacción {tx}). Esperando a la red…',
  sandboxFailed: 'La billetera del sandbox no pudo pagar: {message}',
};

const MESSAGES: Record<Locale, Messages> = { en, 'pt-BR': ptBR, es };

/** The names of the languages in themselves, for the language switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  'pt-BR': 'Português (Brasil)',
  es: 'Español',
};

/**
 * The first supported language among the candidates, most wanted first: `?lang=` then the
 * browser's languages. Any Portuguese gets pt-BR and any Spanish gets es (closer than English).
 */
export function pickLocale(candidates: readonly (string | null | undefined)[]): Locale {
  for (const raw of candidates) {
    const tag = raw?.trim().toLowerCase();
    if (!tag) continue;
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const base = tag.split(/[-_]/)[0];
    if (base === 'pt') return 'pt-BR';
    if (base === 'es') return 'es';
    if (base === 'en') return 'en';
  }
  return 'en';
}

/** An Accept-Language header as a list of tags, best first (q=0 dropped). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

/** The message in `locale`, with `{name}` placeholders filled. */
export function translate(locale: Locale, key: MessageKey, vars: Record<string, string> = {}): string {
  return MESSAGES[locale][key].replace(/\{(\w+)\}/g, (all, name: string) => vars[name] ?? all);
}
