import type { Catalog } from './catalog.js';

/**
 * Brazilian Portuguese, in the courteous register of Brazilian software ("você" with the formal
 * imperative: "Digite", "Verifique"), as identity products phrase their sign-in pages (catalog.ts).
 */
export const ptBR: Catalog = {
  messages: {
    'layout.title': '{page} · {product}',
    'layout.product-title': '{product}',
    'layout.footer': 'Protegido por {product} · servidor de autorização OAuth 2.0',
    'layout.languages': 'Idioma',
    'error.details': 'Detalhes, como enviados ao aplicativo',
    'error.what-to-do': 'O que fazer',
    'error.try-again': 'Tentar novamente',
    'error.fine-print': 'Erro <code>{error}</code> · HTTP {status} · <link>Sobre este erro</link>',
    'error.not-found.title': 'Página não encontrada',
    'error.not-found.detail': 'Não há nenhuma página em {path}.',
    'error.not-found.action':
      'Verifique o endereço ou vá para a <link>página inicial</link> para ver o que este servidor oferece.',
    'form-post.title': 'Voltando ao aplicativo',
    'form-post.no-script': 'Seu navegador não executa scripts aqui; continue manualmente.',
    'form-post.continue': 'Continuar',
    'client.claim': 'Apresenta-se como “{name}”, um nome que ninguém verificou',
    'client.links': 'Sobre o aplicativo',
    'client.link.home': 'Site',
    'client.link.policy': 'Política de privacidade',
    'client.link.terms': 'Termos de serviço',
    'client.any': 'o aplicativo',
    'common.signed-in-as': 'Conectado como <b>{username}</b>',
    'sign-in.title': 'Entrar',
    'sign-in.lead.account': 'na sua conta',
    'sign-in.lead.client': 'para continuar em <app>{client}</app>',
    'sign-in.username': 'Nome de usuário',
    'sign-in.password': 'Senha',
    'sign-in.submit': 'Entrar',
    'sign-in.next.consent': 'Em seguida, você escolherá o que {client} pode fazer com a sua conta.',
    'sign-in.next.account': 'Você verá os aplicativos que podem usar a sua conta e como você entra.',
    'sign-in.upstreams.title': 'Ou entre com a sua organização',
    'sign-in.upstreams.email': 'E-mail corporativo',
    'sign-in.upstreams.continue': 'Continuar',
    'sign-in.upstreams.provider': 'Entrar com {provider}',
    'sign-in.alert.check': 'Verifique os dados e tente novamente.',
    'sign-in.alert.passkey': 'Tente novamente ou use a sua senha.',
    'sign-in.alert.wait-seconds': 'Tente novamente em {seconds, plural, one {# segundo} other {# segundos}}.',
    'sign-in.alert.wait-minutes': 'Tente novamente em {minutes, plural, one {# minuto} other {# minutos}}.',
    'passkey.or': 'ou',
    'passkey.sign-in': 'Entrar com uma chave de acesso',
    'passkey.confirm': 'Confirmar com uma chave de acesso',
    'passkey.use': 'Usar uma chave de acesso',
    'passkey.checking': 'Verificando a sua chave de acesso…',
    'passkey.not-used': 'Nenhuma chave de acesso foi usada. Tente novamente ou use a sua senha.',
    'passkey.failed': 'A chave de acesso não funcionou aqui. Recarregue a página e tente novamente.',
    'passkeys.title': 'Chaves de acesso',
    'passkeys.none':
      'Nenhuma chave de acesso ainda. Uma chave de acesso permite entrar sem senha, com a sua impressão digital, o seu rosto, o bloqueio de tela ou uma chave de segurança.',
    'passkeys.added': 'Adicionada em {added}',
    'passkeys.not-used': 'Ainda não usada',
    'passkeys.last-used': 'Último uso {when}',
    'passkeys.synced': 'Sincronizada',
    'passkeys.rename-label': 'Novo nome para {name}',
    'passkeys.rename': 'Renomear',
    'passkeys.remove': 'Remover chave de acesso',
    'passkeys.name-label': 'Nome da nova chave de acesso (opcional)',
    'passkeys.name-placeholder': 'Notebook do trabalho',
    'passkeys.add': 'Adicionar uma chave de acesso',
    'factor.title': 'Verificação em duas etapas',
    'factor.other-ways': 'Outras formas de verificar',
    'factor.verify': 'Verificar',
    'factor.label.otp': 'Código do seu aplicativo autenticador',
    'factor.label.recovery-code': 'Código de recuperação',
    'factor.label.passkey': 'Uma chave de acesso',
    'factor.alert.replayed': 'Esse código já foi usado. Aguarde o próximo.',
    'factor.alert.wrong-recovery-code': 'Esse código de recuperação está errado ou já foi usado.',
    'factor.alert.enrolment-refused': 'Comece novamente pelo aplicativo.',
    'factor.alert.check': 'Verifique o código e tente novamente.',
    'enrol.title': 'Configurar a verificação em duas etapas',
    'enrol.reason':
      'Para continuar em <app>{client}</app>, o seu acesso precisa de uma segunda etapa: depois da senha, um código de um aplicativo no seu celular.',
    'enrol.scan':
      'Leia este código com um aplicativo autenticador (como Google Authenticator, 1Password ou Aegis) e digite o código de seis dígitos que ele mostrar.',
    'enrol.qr': 'Código QR para o seu aplicativo autenticador',
    'enrol.cannot-scan': 'Não consegue ler o código? Digite esta chave no aplicativo:',
    'enrol.code': 'Código do aplicativo',
    'enrol.submit': 'Ativar a verificação em duas etapas',
    'enrol.not-now': 'Agora não: voltar para a sua conta',
    'recovery.title': 'Seus códigos de recuperação',
    'recovery.heading': 'Guarde os seus códigos de recuperação',
    'recovery.lead':
      'Cada código permite entrar uma vez se você perder o seu aplicativo autenticador. Guarde-os em um lugar seguro: esta é a única vez em que eles são mostrados.',
    'recovery.continue': 'Já guardei, continuar',
    'consent.title': 'Permitir {client}?',
    'consent.heading': '<app>{client}</app> quer acessar a sua conta',
    'consent.document-note':
      '<b>Nenhum administrador adicionou este aplicativo.</b> Ele se descreve a partir de <site>{host}</site>, a única coisa que o {product} pôde verificar. Só permita se você confiar nesse site.',
    'consent.self-registered':
      '<b>Este aplicativo registrou a si mesmo.</b> Nenhum administrador o adicionou, então o nome dele não foi verificado: só permita se foi você quem o iniciou.',
    'consent.no-access': '{client} só quer saber que você está conectado; ele não recebe acesso aos seus dados.',
    'consent.will-allow': 'Isto permitirá que {client}:',
    'consent.deny': 'Negar',
    'consent.allow': 'Permitir',
    'consent.organization': 'Para a organização {organization}',
    'organizations.choose.title': 'Escolha uma organização',
    'organizations.choose.lead': 'Para qual organização você está entrando em {client}?',
    'consent.fine-print':
      'Em ambos os casos, você voltará para <b>{destination}</b>. Você pode retirar o acesso depois na <account>página da sua conta</account>.',
    'scope.openid': 'Conecte você com a sua conta',
    'scope.profile': 'Veja o seu nome, nome de usuário e idioma',
    'scope.email': 'Veja o seu endereço de e-mail e se ele foi verificado',
    'scope.offline-access': 'Mantenha o acesso enquanto você estiver ausente',
    'scope.read': 'Veja os seus {things}',
    'scope.write': 'Crie, altere e exclua os seus {things}',
    'device.title': 'Conectar um dispositivo',
    'device.lead': 'Digite o código exibido no seu dispositivo.',
    'device.code': 'Código',
    'device.code-placeholder': 'XXXX-XXXX',
    'device.continue': 'Continuar',
    'device.fine-print': 'Digite apenas o código de um dispositivo que você mesmo esteja configurando.',
    'device.check-code': 'Verifique se o seu dispositivo mostra <usercode>{userCode}</usercode>',
    'device.consent-fine-print':
      'Se os códigos forem diferentes, ou se você não iniciou isto em um dispositivo, escolha Negar. Você pode retirar o acesso depois na <account>página da sua conta</account>.',
    'device.connected.title': 'Dispositivo conectado',
    'device.connected.text': '{client} agora tem acesso. Volte ao seu dispositivo: ele continua sozinho.',
    'device.denied.title': 'Acesso negado',
    'device.denied.text': '{client} não recebeu acesso. Você pode fechar esta página.',
    'device.alert.check': 'Verifique o código no seu dispositivo e digite-o novamente.',
    'logout.title': 'Sair',
    'logout.heading': 'Sair do {product}?',
    'logout.not-signed-in': 'Você não está conectado.',
    'logout.asked-by': '<app>{client}</app> pediu para desconectar você.',
    'logout.lead': 'Da próxima vez que um aplicativo enviar você para cá, você entrará novamente.',
    'logout.submit': 'Sair',
    'logout.account': 'Sua conta',
    'signed-out.title': 'Desconectado',
    'signed-out.heading': 'Você saiu',
    'signed-out.lead': 'Você pode fechar esta janela. Os aplicativos que você usa pedirão que você entre novamente.',
    'account.title': 'Sua conta',
    'account.apps.none': 'Nenhum aplicativo tem acesso à sua conta.',
    'account.apps.title': 'Aplicativos com acesso à sua conta',
    'account.apps.dates': 'Permitido desde {since} · Último uso {used}',
    'account.apps.remove': 'Remover acesso',
    'account.fine-print': 'Remover o acesso desconecta o aplicativo na hora: os tokens dele param de funcionar.',
    'account.sign-out': 'Sair',
    'account.linked.title': 'Provedores de identidade com que você entra',
    'account.linked.since': 'Vinculado desde {since}',
    'account.linked.unlink': 'Desvincular',
    'account.notice.access-removed': 'Acesso removido: o aplicativo não pode mais usar a sua conta.',
    'account.notice.access-removed-named':
      'Acesso removido: {client} não pode mais usar a sua conta. Os tokens dele pararam de funcionar.',
    'account.notice.two-step-on':
      'A verificação em duas etapas está ativada. Guarde os seus códigos de recuperação em um lugar seguro.',
    'account.notice.two-step-off':
      'O aplicativo autenticador foi desativado, e os códigos de recuperação dele não funcionam mais.',
    'account.notice.recovery-codes': 'Você tem novos códigos de recuperação. Os antigos não funcionam mais.',
    'account.notice.passkey-added': 'Chave de acesso adicionada. Ela permite entrar sem senha.',
    'account.notice.passkey-renamed': 'Chave de acesso renomeada.',
    'account.notice.passkey-removed': 'Chave de acesso removida. Ela não permite mais entrar.',
    'account.notice.language': 'O seu idioma foi salvo.',
    'account.language.title': 'Idioma',
    'account.language.label': 'Idioma destas páginas e dos aplicativos que perguntarem',
    'account.language.automatic': 'O que o meu navegador pedir',
    'account.language.save': 'Salvar idioma',
    'security.title': 'Como você entra',
    'security.on-app':
      'A verificação em duas etapas está <b>ativada</b>: códigos do seu aplicativo autenticador, desde {since}. {codes, plural, one {Resta # código de recuperação.} other {Restam # códigos de recuperação.}}',
    'security.on-app-passkeys':
      'A verificação em duas etapas está <b>ativada</b>: códigos do seu aplicativo autenticador, desde {since}, e {passkeys, plural, one {# chave de acesso} other {# chaves de acesso}}. {codes, plural, one {Resta # código de recuperação.} other {Restam # códigos de recuperação.}}',
    'security.on-passkeys':
      'A verificação em duas etapas está <b>ativada</b>: {passkeys, plural, one {# chave de acesso} other {# chaves de acesso}}.',
    'security.off': 'A verificação em duas etapas está <b>desativada</b>.',
    'security.confirm':
      '<b>Confirme que é você para fazer alterações.</b> Configurar ou desativar a verificação em duas etapas, e adicionar, renomear ou remover uma chave de acesso, exige ter entrado {minutes, plural, one {no último minuto} other {nos últimos # minutos}}.',
    'security.confirm-submit': 'Confirmar que sou eu',
    'security.add-app': 'Adicionar um aplicativo autenticador',
    'security.set-up': 'Configurar a verificação em duas etapas',
    'security.new-codes': 'Novos códigos de recuperação',
    'security.turn-off': 'Desativar',
    'link.title': 'Vincular a sua conta',
    'link.lead':
      'Uma conta daqui já usa o endereço de e-mail informado por <b>{provider}</b>. Se ela for sua, digite a senha dela para entrar com <b>{provider}</b> de agora em diante.',
    'link.lead-passkey':
      'Uma conta daqui já usa o endereço de e-mail informado por <b>{provider}</b>. Se ela for sua, digite a senha dela ou use uma das chaves de acesso dela para entrar com <b>{provider}</b> de agora em diante.',
    'link.password': 'Senha dessa conta',
    'link.submit': 'Vincular e continuar',
    'link.passkey': 'Usar uma chave de acesso dessa conta',
    'link.fine-print':
      'Não é a sua conta? Feche esta janela: nada é vinculado sem a senha ou uma chave de acesso da conta.',
    'link.alert.wrong-password': 'Senha incorreta',
    'link.alert.check': 'Nada foi vinculado. Verifique a senha e tente novamente.',
    'link.alert.passkey': 'Nada foi vinculado. Tente a chave de acesso novamente, ou a senha.',
    'continue.title': 'Conectado',
    'continue.lead': 'Levando você de volta ao aplicativo…',
    'continue.button': 'Continuar',
    'landing.lead':
      'O servidor de autorização OAuth 2.0 e provedor OpenID em <b>{issuer}</b>. Os aplicativos enviam você para cá para entrar e pedir acesso à sua conta.',
    'landing.account': 'Sua conta',
    'landing.account.what': 'os aplicativos que você permitiu, e a saída',
    'landing.openid': 'Configuração do provedor OpenID',
    'landing.openid.what': 'OpenID Connect Discovery 1.0',
    'landing.metadata': 'Metadados do servidor de autorização',
    'landing.metadata.what': 'RFC 8414: endpoints, concessões, escopos',
    'landing.jwks': 'Chaves de assinatura',
    'landing.jwks.what': 'as chaves públicas dos seus tokens (JWKS)',
    'landing.api': 'API REST',
    'landing.api.what': 'o documento OpenAPI de {prefix}',
    'landing.fine-print': 'Desenvolvedores: comecem pelos metadados; cada erro leva a uma página que o explica.',
    'problems.status': 'HTTP {status}',
    'problems.transient': 'temporário: a mesma requisição pode dar certo mais tarde',
    'problems.permanent': 'permanente: tentar de novo falha outra vez',
    'problems.wire-title': 'O <code>title</code> dele numa resposta: <wire>{title}</wire>',
    'problems.client-action': 'O que o cliente deve fazer',
    'problems.reasons': 'A <code>error_description</code> de cada motivo',
    'problems.every-error': 'Todos os erros',
    'problems.home': 'Início',
    'problems.index.title': 'Erros',
    'problems.index.lead':
      'Cada erro que este servidor responde, com o que o cliente deve fazer. Um erro OAuth indica a página dele em <code>error_uri</code>; um problema (RFC 9457), em <code>type</code>.',
    'problems.index.oauth': 'Erros do OAuth 2.0, com os seus motivos',
    'problems.index.problems': 'Problemas (<code>application/problem+json</code>)',
    'demo.served': 'Exibida porque o servidor roda com <code>--demo</code>.',
    'demo.no-code.title': 'Sem código',
    'demo.no-code.heading': 'Nenhum código de autorização',
    'demo.no-code.summary': 'A requisição de autorização voltou sem um código que esta página possa usar.',
    'demo.no-code.again': 'Comece de novo com a URL de autorização que o <code>npm start</code> mostrou.',
    'demo.code.title': 'Código de autorização',
    'demo.code.heading': 'Código de autorização recebido',
    'demo.code.lead':
      'O servidor de autorização mandou o navegador de volta para cá, para a URI de redirecionamento da demonstração.',
    'demo.code.exchange': 'Troque-o em até {seconds, plural, one {# segundo} other {# segundos}}',
    'demo.code.verifier':
      'Informe o <code>code_verifier</code> da sua requisição de autorização (o que foi mostrado ao lado da URL que você abriu).',
    'demo.code.once': 'O código funciona uma única vez.',
    'demo.refused.title': 'Troca recusada',
    'demo.refused.heading': 'A troca do código foi recusada',
    'demo.refused.summary':
      'Esta página enviou o código para /token pelo cliente público da demonstração, que respondeu:',
    'demo.refused.again': 'Comece de novo com a URL do OpenID Connect que o <code>npm start</code> mostrou.',
    'demo.signed-in.title': 'Conectado',
    'demo.signed-in.heading': 'Conectado com OpenID Connect',
    'demo.signed-in.lead':
      'Esta página trocou o código em /token, como o cliente público da demonstração, e recebeu um token de ID para o escopo <code>{scope}</code>. As claims dele:',
    'demo.signed-in.nonce-ok': 'O nonce é o da requisição mostrada.',
    'demo.signed-in.nonce-wrong': 'O nonce NÃO é o da requisição mostrada.',
    'demo.signed-in.check':
      'Um cliente verifica a assinatura do token com as chaves em <link>/jwks</link> e as claims dele (OIDC Core §3.1.3.7); esta página apenas as mostra.',
    'demo.signed-in.userinfo': 'Consultar /userinfo com o token de acesso',
    'sign-in.forgot-password': 'Esqueceu sua senha?',
    'reset.title': 'Redefinir sua senha',
    'reset.lead':
      'Digite o nome de usuário ou o endereço de e-mail da sua conta. Enviaremos para o e-mail dela um link para escolher uma nova senha.',
    'reset.identifier': 'Nome de usuário ou endereço de e-mail',
    'reset.submit': 'Enviar o link',
    'reset.back': 'Voltar para o login',
    'reset.sent.title': 'Confira seu e-mail',
    'reset.sent.lead':
      'Se alguma conta corresponder ao que você digitou e tiver um endereço de e-mail, um link para escolher uma nova senha está a caminho. Ele funciona uma vez, em até {minutes, plural, one {# minuto} other {# minutos}}.',
    'reset.sent.spam':
      'Nada chegou depois de alguns minutos? Olhe a pasta de spam, confira o que digitou ou fale com o administrador.',
    'reset.new.title': 'Escolha uma nova senha',
    'reset.new.lead': 'Para a conta {username}.',
    'reset.new.password': 'Nova senha',
    'reset.new.hint':
      'No mínimo {min} caracteres. Algumas palavras sem relação entre si formam uma senha forte e fácil de lembrar.',
    'reset.new.code-why': 'Sua conta tem verificação em duas etapas: confirme que é você.',
    'reset.new.code': 'Código do seu app autenticador ou um código de recuperação',
    'reset.new.submit': 'Salvar a nova senha',
    'reset.done.title': 'Senha alterada',
    'reset.done.lead': 'Sua nova senha foi salva e você saiu de todas as sessões. Entre de novo com ela.',
    'reset.done.grants': 'Os aplicativos que tinham acesso à sua conta o perderam: autorize-os de novo quando pedirem.',
    'reset.done.sign-in': 'Entrar',
    'reset.alert.too-short': 'Use pelo menos 8 caracteres.',
    'reset.alert.too-long': 'Use no máximo 1024 caracteres.',
    'reset.alert.too-common':
      'Esta senha é comum, vazou ou é fácil de adivinhar a partir da sua conta. Tente algumas palavras sem relação entre si.',
    'mail.footer': 'Enviado por {product} em {issuer}.',
    'mail.reset.subject': 'Redefina sua senha',
    'mail.reset.lead':
      'Alguém, provavelmente você, pediu para redefinir a senha da sua conta {username}. Para escolher uma nova senha, abra este link em até {minutes, plural, one {# minuto} other {# minutos}}. Ele funciona uma vez.',
    'mail.reset.action': 'Escolher uma nova senha',
    'mail.reset.ignore': 'Se não foi você, ignore este e-mail: sua senha continua a mesma.',
    'account.email.title': 'Endereço de e-mail',
    'account.email.verified': '{email} · verificado',
    'account.email.unverified':
      '{email} · ainda não verificado. Verifique-o para que os aplicativos possam confiar nele.',
    'account.email.send': 'Enviar um e-mail de verificação',
    'account.email.enter-code': 'Digitar o código do e-mail',
    'account.notice.verification-sent':
      'Um e-mail de verificação está a caminho. O link e o código dele funcionam por 24 horas.',
    'account.notice.verification-wait':
      'Foram pedidos e-mails de verificação demais. Abra o mais recente ou tente de novo mais tarde.',
    'account.notice.email-verified': 'Seu endereço de e-mail está verificado.',
    'verify.title': 'Verifique seu endereço de e-mail',
    'verify.lead': 'Confirme que {email} é o endereço da conta {username}.',
    'verify.submit': 'Verificar meu endereço',
    'verify.code.title': 'Digite o código de verificação',
    'verify.code.lead': 'Digite o código de seis dígitos do e-mail mais recente enviado para {email}.',
    'verify.code.label': 'Código de verificação',
    'verify.code.submit': 'Verificar',
    'verify.code.check': 'Confira o código no e-mail mais recente e tente de novo.',
    'verify.back': 'Voltar para sua conta',
    'verify.done.title': 'Endereço verificado',
    'verify.done.lead': '{email} está verificado. Os aplicativos que você autorizar já podem confiar nele.',
    'mail.verify.subject': 'Verifique seu endereço de e-mail',
    'mail.verify.lead': 'Confirme que este é o endereço de e-mail da sua conta {username}.',
    'mail.verify.action': 'Verificar meu endereço',
    'mail.verify.code':
      'Ou digite este código onde a página pedir: {code}. O link e o código funcionam uma vez, por {hours} horas.',
    'mail.verify.ignore': 'Se você não conhece esta conta, ignore este e-mail.',
    'invite.title': 'Aceitar o convite',
    'invite.lead':
      'Você foi convidado para {where}, com o endereço {email}. Escolha um nome de usuário e uma senha para sua conta.',
    'invite.username': 'Nome de usuário',
    'invite.username-hint': 'Até 64 caracteres: letras a–z, dígitos e . _ @ -, começando por uma letra ou um dígito.',
    'invite.password': 'Senha',
    'invite.submit': 'Criar minha conta',
    'invite.alert.username-taken': 'Esse nome de usuário já existe: escolha outro.',
    'invite.done.title': 'Sua conta está pronta',
    'invite.done.lead': 'A conta {username} foi criada e seu endereço foi verificado. Entre com sua nova senha.',
    'invite.member.lead': 'Você foi convidado para {where}, com sua conta {username}.',
    'invite.member.sign-in-first': 'Entre primeiro como {username} e depois abra de novo o link do e-mail.',
    'invite.member.accept': 'Aceitar o convite',
    'invite.joined.title': 'Convite aceito',
    'invite.joined.lead': 'Você entrou em {where}.',
    'mail.invitation.subject': 'Você foi convidado',
    'mail.invitation.lead':
      'Você foi convidado para {where}. Escolha um nome de usuário e uma senha para criar sua conta; este link funciona por {days, plural, one {# dia} other {# dias}}.',
    'mail.invitation.action': 'Aceitar o convite',
    'mail.invitation.existing-lead':
      'Você foi convidado para {where} com sua conta {username}. Entre e aceite em até {days, plural, one {# dia} other {# dias}}.',
    'mail.invitation.existing-action': 'Entrar e aceitar',
    'mail.invitation.ignore': 'Se você não esperava isto, ignore este e-mail: nada acontece sem você.',
    'account.data.title': 'Seus dados',
    'account.data.lead':
      'Tudo o que este servidor guarda sobre você, em um arquivo JSON: seus dados, como você entra (sem segredos), os aplicativos que você permitiu, suas sessões, participações e os eventos de auditoria sobre você.',
    'account.data.download': 'Baixar meus dados',
    'account.delete.title': 'Excluir minha conta',
    'account.delete.lead':
      'Isto exclui sua conta para sempre: todos os aplicativos perdem o acesso e sua senha, chaves de acesso, segundos fatores e sessões são removidos. O registro de auditoria mantém suas entradas sem seus dados pessoais.',
    'account.delete.confirm': 'Digite seu nome de usuário, {username}, para confirmar',
    'account.delete.submit': 'Excluir minha conta para sempre',
    'account.delete.fresh':
      'Excluir a conta exige um acesso feito nos últimos 10 minutos: confirme primeiro, acima, que é você.',
    'account.deleted.title': 'Conta excluída',
    'account.deleted.lead': 'Sua conta e o que ela continha foram excluídos, e você saiu de todos os lugares.',
    'sign-in.sign-up': 'Criar uma conta',
    'sign-up.title': 'Criar uma conta',
    'sign-up.lead': 'Enviamos um e-mail para o seu endereço para verificá-lo; depois você entra com ele e sua senha.',
    'sign-up.domains': 'Somente endereços de {domains}.',
    'sign-up.email': 'Endereço de e-mail',
    'sign-up.name': 'Nome',
    'sign-up.submit': 'Criar a conta',
    'sign-up.alert.address': 'Digite o endereço em que você recebe e-mails, como nome@example.com.',
    'sign-up.alert.domain': 'Use um endereço de {domains}.',
    'sign-up.alert.name': 'Digite um nome de no máximo 128 caracteres, em uma linha.',
    'sign-up.sent.lead':
      'Se nenhuma conta tem este endereço ainda, um e-mail com um link para verificá-lo está a caminho: abra-o em até {hours} horas para concluir. Se o endereço já tem uma conta, o titular dela é avisado.',
    'mail.sign-up-taken.subject': 'Alguém tentou se cadastrar com seu endereço',
    'mail.sign-up-taken.lead':
      'Alguém pediu para criar uma conta com este endereço de e-mail, que já pertence à sua conta {username}. Nenhuma conta foi criada.',
    'mail.sign-up-taken.action': 'Redefinir sua senha',
    'mail.sign-up-taken.ignore':
      'Se foi você, entre com essa conta ou escolha uma nova senha pelo link acima. Se não foi, ignore este e-mail: nada mudou.',
  },
  problems: {
    'organization-not-member': {
      title: 'Você não é membro desta organização',
      summary:
        'O aplicativo pediu para conectar você a uma organização (seu parâmetro organization) que não existe neste servidor ou da qual sua conta não é membro. Nada foi concedido.',
      action:
        'Volte ao aplicativo e escolha uma das suas organizações, ou peça a um administrador da organização que adicione você.',
    },
    'organization-sign-in-method': {
      title: 'Sua organização pede outra forma de entrar',
      summary:
        'Você entrou de uma forma que a organização pedida pelo aplicativo não permite (seus métodos de entrada: uma senha, uma chave de acesso ou o provedor de identidade da organização). Nada foi concedido.',
      action:
        'Saia e entre novamente de uma das formas indicadas nos detalhes (por exemplo com sua chave de acesso ou pelo provedor de identidade da sua empresa), ou fale com um administrador da organização.',
    },
    'password-reset-link-invalid': {
      title: 'Este link de redefinição de senha não funciona mais',
      summary:
        'O link para escolher uma nova senha já foi usado, tem mais de 30 minutos, foi encerrado por uma redefinição mais recente da mesma conta ou não foi enviado por este servidor. Cada link funciona uma vez. Nada foi alterado.',
      action: 'Peça um novo link: escolha "Esqueceu sua senha?" na página de login e abra o e-mail mais recente.',
    },
    'too-many-password-resets': {
      title: 'Pedidos de redefinição de senha demais',
      summary:
        'E-mails de redefinição de senha foram pedidos vezes demais: para este nome de usuário ou endereço de e-mail (por padrão, 5 por hora) ou a partir deste endereço de rede (20 por hora). Nenhum e-mail foi enviado para este pedido. Os operadores definem os limites com RATE_LIMIT_PASSWORD_RESET_ACCOUNT e RATE_LIMIT_PASSWORD_RESET_ADDRESS.',
      action:
        'Aguarde o tempo indicado no cabeçalho Retry-After (mostrado na página) e peça de novo; enquanto isso, abra o e-mail mais recente já enviado.',
    },
    'password-not-accepted': {
      title: 'Escolha outra senha',
      summary:
        'A nova senha foi recusada (NIST SP 800-63B §3.1.1.2): tem menos de 8 caracteres, mais de 1024, ou é uma das senhas comuns, vazadas em incidentes ou fáceis de adivinhar a partir delas ou da própria conta (nome de usuário, endereço de e-mail ou nome). Nenhuma regra exige dígitos, maiúsculas ou símbolos. Nada foi alterado.',
      action:
        'Escolha uma senha mais longa que não seja uma palavra ou frase comum, por exemplo várias palavras sem relação entre si; um gerenciador de senhas pode criar uma.',
    },
    'login-failed': {
      title: 'Nome de usuário ou senha incorretos',
      summary:
        'O nome de usuário e a senha não correspondem a nenhuma conta. A mesma resposta é dada para um nome de usuário desconhecido e para uma senha errada.',
      action:
        'Verifique o nome de usuário e a senha e tente novamente. Depois de 10 tentativas com falha em uma hora para um nome de usuário (ou 100 a partir de um endereço), novas tentativas são recusadas por um tempo.',
    },
    'too-many-login-attempts': {
      title: 'Tentativas de entrada demais',
      summary:
        'A entrada foi recusada antes de a senha ser verificada: falhas demais para este nome de usuário ou a partir deste endereço (por padrão 10 por hora por nome de usuário e 100 por hora por endereço, depois mais uma a cada 6 minutos), ou tentativas demais de qualquer tipo a partir deste endereço ou para este aplicativo (60 e 600 por minuto). Os operadores definem os limites com RATE_LIMIT_LOGIN_*.',
      action: 'Aguarde o tempo informado no cabeçalho Retry-After (mostrado na página) e tente novamente.',
    },
    'passkey-sign-in-failed': {
      title: 'Essa chave de acesso não funcionou',
      summary:
        'A chave de acesso oferecida pelo navegador não foi aceita: ela não está registrada aqui (ou foi removida), a página de entrada tinha expirado ou já tinha sido usada (cada página pergunta uma vez, por 5 minutos), o navegador informou outro site ou nenhuma verificação do usuário (um PIN, a digital ou o rosto), ou o contador de assinaturas do autenticador voltou atrás, sinal de uma chave clonada. Cada recusa é registrada na auditoria.',
      action:
        'Tente novamente a partir de uma página de entrada recarregada ou entre com a sua senha. Se a chave de acesso foi removida da sua conta, adicione-a de novo na página da conta. Depois de 10 tentativas com falha em uma hora para uma conta (ou 100 a partir de um endereço), novas tentativas são recusadas por um tempo.',
    },
    'second-factor-failed': {
      title: 'Esse código não funcionou',
      summary:
        'A segunda etapa de uma entrada foi recusada: o código do aplicativo autenticador está errado, a mais de 30 segundos do horário atual ou já foi usado (cada código serve uma vez, RFC 6238 §5.2); o código de recuperação está errado ou já foi usado; ou, ao configurar a verificação em duas etapas, o código não corresponde à chave mostrada. Nada foi salvo. Códigos errados contam como senhas erradas: depois de 10 falhas em uma hora para um usuário (ou 100 a partir de um endereço), novas tentativas são recusadas por um tempo.',
      action:
        'Digite o código que o aplicativo mostra agora (ou aguarde o próximo se acabou de usá-lo), ou use um dos seus códigos de recuperação. Se perdeu os dois, peça ao operador para redefinir o seu segundo fator (gatehouse users reset-factors).',
    },
    'user-code-invalid': {
      title: 'Esse código não funcionou',
      summary:
        'O código digitado na página do dispositivo não corresponde a nenhum dispositivo em espera: digitado errado, expirado (os códigos valem 10 minutos) ou já aprovado ou negado. Maiúsculas e hífens não importam. Cada código errado é contado e registrado (RFC 8628 §5.1).',
      action:
        'Verifique o código mostrado no dispositivo e digite-o novamente. Se o dispositivo não mostrar mais nenhum código, comece a entrada de novo no dispositivo para obter outro.',
    },
    'too-many-user-code-attempts': {
      title: 'Códigos errados demais',
      summary:
        'A página do dispositivo recusou o código antes de verificá-lo: códigos errados demais a partir deste endereço (por padrão 20 por hora) ou tentativas demais de qualquer tipo (60 por minuto). Isso impede que alguém adivinhe os códigos dos dispositivos de outras pessoas (RFC 8628 §5.1). Os operadores definem os limites com RATE_LIMIT_USER_CODE_*.',
      action: 'Aguarde o tempo informado no cabeçalho Retry-After (mostrado na página) e tente novamente.',
    },
    'csrf-token-invalid': {
      title: 'Este formulário expirou',
      summary:
        'O formulário foi enviado sem o seu token de segurança, com um token errado ou depois do fim da sessão de entrada, então ele pode não ter vindo deste site. Nada foi alterado e nada foi concedido.',
      action:
        'Volte ao aplicativo e comece a entrar de novo. Se isso continuar acontecendo, permita cookies para este site.',
    },
    'invalid-authorization-request': {
      title: 'Este link de entrada não é válido',
      summary:
        'A requisição de autorização não indica nenhum cliente ou indica um desconhecido, ou uma redirect_uri ausente ou não registrada para o cliente. O servidor não tem como saber para onde seria seguro mandar você de volta, então para aqui em vez de redirecionar (RFC 6749 §4.1.2.1).',
      action:
        'Volte ao aplicativo e avise o desenvolvedor. Ele precisa enviar um client_id registrado e exatamente uma das URIs de redirecionamento registradas, caractere por caractere (gatehouse clients add --redirect-uri).',
    },
    'fresh-sign-in-required': {
      title: 'Entre novamente para alterar isto',
      summary:
        'Toda alteração na forma como você entra (configurar ou desativar a verificação em duas etapas, novos códigos de recuperação, adicionar, renomear ou remover uma chave de acesso, desvincular um provedor de identidade) exige uma entrada feita nos últimos 10 minutos, para que ninguém que encontre um navegador conectado possa adicionar ou retirar uma forma de acesso. Nada foi alterado.',
      action:
        'Escolha “Confirmar que sou eu” na página da conta (sua senha ou uma chave de acesso) e depois faça a alteração.',
    },
    'not-found': {
      title: 'Não encontrado',
      summary: 'Não há nenhum recurso nesta URL.',
      action: 'Verifique a URL; os metadados do servidor e o documento OpenAPI listam o que existe.',
    },
  },
};
