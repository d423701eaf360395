import type { SandboxKey } from './en-sandbox';

export const ptBRSandbox: Record<SandboxKey, string> = {
  sandboxBanner: 'Sandbox, sem dinheiro real',
  sandboxBannerHint:
    'Este serviço roda em redes locais de teste: pedidos, pagamentos e reembolsos aqui movem só tokens de teste.',
  simulateTitle: 'Simular pagamento',
  simulateIntro:
    'Envia uma transferência real na rede local do sandbox a partir de um pagador de teste com saldo; o pedido segue como seguiria com qualquer pagador.',
  simulateKind: 'Valor',
  simulateExact: 'Exato: o que ainda falta',
  simulatePart: 'Parte: a metade',
  simulateOver: 'A mais: 10% a mais',
  simulateOption: 'Pagar com',
  simulateTagged: 'Etiquetado: identifica o pedido na rede, como faz uma carteira que paga pelo checkout',
  simulateReport: 'Informado: avisa o serviço da transação, como faz a página de checkout',
  simulateSubmit: 'Simular pagamento',
  simulateSent: '{amount} enviado (transação {tx}). O pedido acompanha a rede.',
  sandboxSendRefund: 'Enviar reembolso pela carteira do sandbox',
  sandboxRefundSent:
    'Enviado pela carteira do sandbox (transação {tx}). O reembolso é concluído quando a rede o confirmar.',
};
