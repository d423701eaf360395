import type { RefundStatus } from '../../contract';
import type { PageLanguage } from './page-language';

export type RefundPageText = {
  title: string;
  intro: (o: { merchant: string; amount: string; token: string; network: string }) => string;
  merchantFallback: string;
  status: Record<RefundStatus, string>;
  addressLabel: (network: string) => string;
  addressHint: (o: { token: string; network: string }) => string;
  submit: string;
  saving: string;
  /** Said by the form: an address not proved by a wallet that paid the refund waits for the shop's approval. */
  approvalHint: string;
  failed: string;
  sendsTo: string;
  transaction: string;
  deadline: string;
  order: string;
};

/** The refund page in the checkout's languages. */
export const REFUND_PAGE_TEXT: Record<PageLanguage, RefundPageText> = {
  en: {
    title: 'Refund',
    intro: (o) => `${o.merchant} is refunding ${o.amount} ${o.token} on ${o.network}.`,
    merchantFallback: 'The shop',
    status: {
      AWAITING_ADDRESS: 'Waiting for your address',
      AWAITING_APPROVAL:
        'Address received: the shop must approve it before the refund is sent, as it was not proved with a wallet that paid at least the refunded amount',
      PENDING: 'Address received: the refund is on its way',
      SUCCEEDED: 'Refund sent',
      FAILED: 'This refund was not completed: please contact the shop',
    },
    addressLabel: (network) => `Your ${network} wallet address`,
    addressHint: (o) =>
      `Only a wallet that receives ${o.token} on ${o.network}. An exchange deposit address may not credit it. It can be given once.`,
    submit: 'Send address',
    saving: 'Saving…',
    approvalHint:
      'To protect your refund from anyone else who has this link, the shop approves the address before sending.',
    failed: 'The address could not be saved',
    sendsTo: 'Refund address',
    transaction: 'Transaction',
    deadline: 'Completes by',
    order: 'Order',
  },
  'pt-BR': {
    title: 'Reembolso',
    intro: (o) => `${o.merchant} está reembolsando ${o.amount} ${o.token} na rede ${o.network}.`,
    merchantFallback: 'A loja',
    status: {
      AWAITING_ADDRESS: 'Aguardando o seu endereço',
      AWAITING_APPROVAL:
        'Endereço recebido: a loja precisa aprová-lo antes de enviar o reembolso, pois ele não foi comprovado com uma carteira que pagou pelo menos o valor reembolsado',
      PENDING: 'Endereço recebido: o reembolso está a caminho',
      SUCCEEDED: 'Reembolso enviado',
      FAILED: 'Este reembolso não foi concluído: fale com a loja',
    },
    addressLabel: (network) => `Endereço da sua carteira ${network}`,
    addressHint: (o) =>
      `Apenas uma carteira que recebe ${o.token} na rede ${o.network}. Um endereço de depósito de corretora pode não creditar. Só pode ser informado uma vez.`,
    submit: 'Enviar endereço',
    saving: 'Salvando…',
    approvalHint:
      'Para proteger o seu reembolso de qualquer outra pessoa que tenha este link, a loja aprova o endereço antes de enviar.',
    failed: 'Não foi possível salvar o endereço',
    sendsTo: 'Endereço do reembolso',
    transaction: 'Transação',
    deadline: 'Conclui até',
    order: 'Pedido',
  },
  es: {
    title: 'Reembolso',
    intro: (o) => `${o.merchant} te reembolsa ${o.amount} ${o.token} en la red ${o.network}.`,
    merchantFallback: 'La tienda',
    status: {
      AWAITING_ADDRESS: 'Esperando tu dirección',
      AWAITING_APPROVAL:
        'Dirección recibida: la tienda debe aprobarla antes de enviar el reembolso, ya que no se comprobó con una billetera que pagó al menos el importe reembolsado',
      PENDING: 'Dirección recibida: el reembolso está en camino',
      SUCCEEDED: 'Reembolso enviado',
      FAILED: 'Este reembolso no se completó: contacta a la tienda',
    },
    addressLabel: (network) => `Dirección de tu billetera ${network}`,
    addressHint: (o) =>
      `Solo una billetera que recibe ${o.token} en la red ${o.network}. Una dirección de depósito de un exchange podría no acreditarlo. Se indica una sola vez.`,
    submit: 'Enviar dirección',
    saving: 'Guardando…',
    approvalHint:
      'Para proteger tu reembolso de cualquier otra persona que tenga este enlace, la tienda aprueba la dirección antes de enviarlo.',
    failed: 'No se pudo guardar la dirección',
    sendsTo: 'Dirección del reembolso',
    transaction: 'Transacción',
    deadline: 'Se completa antes de',
    order: 'Pedido',
  },
};
