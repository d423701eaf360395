import type { SandboxKey } from './en-sandbox';

export const esSandbox: Record<SandboxKey, string> = {
  sandboxBanner: 'Sandbox, sin dinero real',
  sandboxBannerHint:
    'Este servicio funciona en redes locales de prueba: aquí los pedidos, pagos y reembolsos solo mueven tokens de prueba.',
  simulateTitle: 'Simular pago',
  simulateIntro:
    'Envía una transferencia real en la red local del sandbox desde un pagador de prueba con saldo; el pedido avanza como con cualquier pagador.',
  simulateKind: 'Monto',
  simulateExact: 'Exacto: lo que aún se debe',
  simulatePart: 'Parte: la mitad',
  simulateOver: 'De más: un 10% más',
  simulateOption: 'Pagar con',
  simulateTagged: 'Etiquetado: nombra el pedido en la red, como una billetera que paga por el checkout',
  simulateReport: 'Informado: avisa al servicio de la transacción, como la página de checkout',
  simulateSubmit: 'Simular pago',
  simulateSent: '{amount} enviado (transacción {tx}). El pedido sigue a la red.',
  sandboxSendRefund: 'Enviar el reembolso desde la billetera del sandbox',
  sandboxRefundSent:
    'Enviado desde la billetera del sandbox (transacción {tx}). El reembolso se completa cuando la red lo confirme.',
};
