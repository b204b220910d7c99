import type { Catalog } from './en.js';

export const ptBR: Catalog = {
  'console.title': 'Console do Gatehouse',
  'console.skip': 'Pular para o conteúdo',
  'console.nav': 'Seções do console',
  'console.signed-in-as': 'Conectado como {name}',
  'console.sign-out': 'Sair',
  'console.loading': 'Carregando…',
  'nav.dashboard': 'Painel',
  'welcome.title': 'Entrar no console',
  'welcome.lead':
    'Aqui os administradores gerenciam usuários, aplicativos e chaves de assinatura. Para entrar, são pedidos sua senha e um segundo fator.',
  'welcome.sign-in': 'Entrar',
  'welcome.signed-out': 'Você saiu.',
  'callback.title': 'Conectando você…',
  'refused.second-factor.title': 'É necessário um segundo fator',
  'refused.second-factor.detail':
    'O console só aceita uma entrada com dois fatores. Adicione uma chave de acesso ou um aplicativo autenticador na página da sua conta e entre novamente.',
  'refused.role.title': 'Você está conectado, mas não tem nenhuma função de administração',
  'refused.role.detail':
    'Sua conta {name} não tem nenhuma das funções admin, user-manager ou auditor. Peça a um administrador que lhe atribua uma e entre novamente.',
  'refused.callback.title': 'Não foi possível concluir a entrada',
  'refused.callback.detail':
    'A resposta recebida não pertence a nenhuma entrada iniciada por este console, ou a entrada foi cancelada. Comece de novo.',
  'refused.invalid.title': 'Não foi possível verificar a entrada',
  'refused.invalid.detail': 'O token de identidade não é para este console ou expirou. Comece de novo.',
  'refused.not-fresh.title': 'Entre novamente para continuar',
  'refused.not-fresh.detail': 'Esta ação exige uma entrada feita nos últimos minutos.',
  'refused.sign-in-again': 'Entrar novamente',
  'refused.account': 'Abrir a página da sua conta',
  'problem.title': 'A API de administração recusou isto',
  'problem.status': 'Status HTTP {status}',
  'problem.retry': 'Tentar novamente',
  'dashboard.title': 'Painel',
  'dashboard.keys': 'Chaves de assinatura',
  'dashboard.keys.current': 'Chave atual',
  'dashboard.keys.count': '{count, plural, one {# chave publicada} other {# chaves publicadas}}',
  'dashboard.failures': 'Falhas recentes',
  'dashboard.failures.caption':
    'Entradas com falha, autenticações de cliente com falha e reutilização de tokens de atualização nas últimas 24 horas',
  'dashboard.failures.none': 'Nenhuma falha nas últimas 24 horas.',
  'dashboard.failures.more': 'Mostrando as {count} mais recentes.',
  'table.when': 'Quando',
  'table.event': 'Evento',
  'table.client': 'Aplicativo',
  'table.subject': 'Usuário',
  'table.reason': 'Motivo',
};
