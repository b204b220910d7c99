import type { ProblemProseTable } from '../catalog.js';

/**
 * Brazilian Portuguese (você) prose of every page of the error catalog, by slug: what a page says of the entry. Wire
 * values (parameter and field names, codes, headers, settings, the exact English `detail` texts) stay as
 * the wire has them.
 */
export const ptBRProblems: ProblemProseTable = {
  'organization-not-member': {
    title: 'Você não é membro desta organização',
    summary:
      'O aplicativo pediu para conectar você a uma organização (seu parâmetro organization) que não existe neste servidor ou da qual sua conta não é membro. Nada foi concedido.',
    action:
      'Volte ao aplicativo e escolha uma das suas organizações, ou peça a um administrador da organização que adicione você.',
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
  'invalid-request': {
    title: 'Solicitação inválida',
    summary:
      'Falta à solicitação um parâmetro obrigatório, ela repete um parâmetro ou seu corpo não está codificado como formulário; no endpoint de autorização, falta um code_challenge PKCE com S256.',
    action: 'Corrija a solicitação como diz o error_description; enviada de novo sem mudanças, ela falha de novo.',
  },
  'invalid-client': {
    title: 'Falha na autenticação do cliente',
    summary:
      'Não foi possível autenticar o cliente: cliente desconhecido (ou, no endpoint de autorização de dispositivo, uma URL client_id cujo documento de metadados de ID de cliente não pôde ser obtido, não é válido ou não é aceito aqui), segredo errado, nenhuma credencial, mais de um método de autenticação ou um método que o cliente não pode usar (um cliente de private_key_jwt ou do perfil FAPI 2.0 enviou um segredo; sua asserção de cliente foi assinada com um algoritmo diferente de PS256, ES256 ou EdDSA).',
    action:
      'É um erro de configuração: verifique o ID do cliente, o segredo e o método de autenticação. Mantenha seus tokens; não autentique o usuário de novo.',
  },
  'invalid-grant': {
    title: 'Concessão recusada',
    summary:
      'O token de atualização ou o código de autorização expirou, foi revogado, passou do limite de rotação, foi emitido para outro cliente ou é desconhecido. A recusa é permanente.',
    action:
      'Não tente de novo com o mesmo token: ele falhará de novo, agora e depois. Descarte-o e faça o usuário passar de novo pelo fluxo de autorização completo para obter uma nova concessão. Se quiser, faça a introspecção do token para confirmar que foi revogado.',
  },
  'unauthorized-client': {
    title: 'Tipo de concessão não permitido para este cliente',
    summary:
      'O cliente não está registrado para o tipo de concessão que usou ou, no endpoint de autorização, para o fluxo de código de autorização.',
    action:
      'É um erro de configuração: peça ao operador que permita o tipo de concessão para o cliente, ou use um permitido.',
  },
  'unsupported-grant-type': {
    title: 'Tipo de concessão não suportado',
    summary:
      'O grant_type não é um dos que este servidor suporta (authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code).',
    action: 'Use um tipo de concessão suportado; os metadados do servidor os listam em grant_types_supported.',
  },
  'invalid-scope': {
    title: 'Escopo inválido',
    summary: 'O escopo solicitado está malformado ou excede o que o cliente ou a concessão permite.',
    action:
      'Solicite apenas escopos para os quais o cliente está registrado; na atualização, apenas escopos da concessão original.',
  },
  'unsupported-token-type': {
    title: 'Este tipo de token não pode ser revogado',
    summary: 'Tokens de acesso são JWTs assinados de curta duração e não são revogados um a um.',
    action:
      'Revogue o token de atualização: isso revoga a concessão inteira, e a API recusa os tokens de acesso de uma concessão revogada.',
  },
  'invalid-redirect-uri': {
    title: 'URI de redirecionamento inválida',
    summary:
      'Um registro de cliente (RFC 7591 §3.2.2) não informou nenhuma URI de redirecionamento para a concessão de código de autorização, ou informou uma que não é uma URI https absoluta sem fragmento nem http simples em um IP literal de loopback (127.0.0.1 ou [::1], RFC 8252 §7.3). Nada foi registrado nem alterado.',
    action:
      'Registre URIs de redirecionamento https ou, para um aplicativo nativo ou um agente nesta máquina, http://127.0.0.1/… ou http://[::1]/… (qualquer porta serve na hora da autorização).',
  },
  'invalid-client-metadata': {
    title: 'Metadados de cliente inválidos',
    summary:
      'Um registro de cliente (RFC 7591 §2, §3.2.2) enviou metadados que o servidor não aceita: um campo de tipo errado, grant_types e response_types que não combinam, um método de autenticação ou escopo que o servidor não oferece, um cliente confidencial sem token de acesso inicial, ou o perfil fapi2 para um cliente que não conseguiria cumprir o FAPI 2.0. Nada foi registrado nem alterado.',
    action:
      'Corrija o campo que o error_description indica e registre de novo; os metadados do servidor listam os tipos de concessão, escopos e métodos de autenticação que ele oferece.',
  },
  'invalid-target': {
    title: 'Recurso desconhecido',
    summary:
      'A solicitação de autorização ou de token indicou um recurso (RFC 8707 §2) que este servidor não atende: nem seu emissor nem sua API REST ({issuer}/v2); ou uma troca de tokens (RFC 8693 §2.2.2) indicou um público ou recurso que a política de troca de tokens do cliente não lista. Nenhum código ou token foi emitido.',
    action:
      'Envie o valor resource dos metadados do recurso protegido (RFC 9728) exatamente como está, ou nenhum recurso para um token para o servidor inteiro. Para uma troca de tokens, peça ao operador que adicione o destino aos públicos de troca de tokens do cliente.',
  },
  'access-denied': {
    title: 'Acesso negado',
    summary:
      'O usuário recusou a solicitação de autorização na página de consentimento. O servidor de autorização envia isto à redirect_uri; nenhum código foi emitido. Um dispositivo que consulta o endpoint de token recebe isto assim que o usuário recusa seu código de dispositivo na página /device (RFC 8628 §3.5).',
    action:
      'Diga ao usuário que o aplicativo não recebeu acesso e ofereça começar o fluxo de autorização de novo quando ele quiser. Não tente de novo por conta própria.',
  },
  'unsupported-response-type': {
    title: 'Tipo de resposta não suportado',
    summary:
      'A solicitação de autorização pediu um response_type diferente de code. Só o fluxo de código de autorização com PKCE é atendido; o fluxo implícito (token) não.',
    action:
      'Envie response_type=code com um code_challenge PKCE com S256 e depois troque o código no endpoint de token.',
  },
  'server-error': {
    title: 'Erro do servidor',
    summary: 'O servidor encontrou uma condição inesperada. Nada mudou no token.',
    action: 'Tente de novo com espera exponencial; informe o problema ao operador se ele persistir.',
  },
  'temporarily-unavailable': {
    title: 'Temporariamente indisponível',
    summary:
      'O servidor está sobrecarregado ou seu armazenamento está ocupado (503), ou o cliente ou seu endereço enviou mais solicitações do que seu limite de taxa permite (429). Nada mudou no token.',
    action:
      'Tente de novo depois do tempo de Retry-After (em segundos inteiros), com espera exponencial. Em caso de 429, envie menos solicitações: reutilize os tokens de acesso até expirarem em vez de atualizá-los antes, e guarde as respostas de introspecção em cache por pouco tempo.',
  },
  'login-required': {
    title: 'É preciso entrar',
    summary:
      'A solicitação de autenticação dizia prompt=none, mas o usuário não entrou (ou entrou há mais tempo do que max_age permite). Nenhuma página foi mostrada.',
    action: 'Faça o usuário passar de novo pela solicitação de autorização sem prompt=none, para que possa entrar.',
  },
  'consent-required': {
    title: 'É preciso consentimento',
    summary:
      'A solicitação de autenticação dizia prompt=none, mas o usuário não concedeu a este aplicativo o escopo solicitado. Nenhuma página foi mostrada.',
    action: 'Faça o usuário passar de novo pela solicitação de autorização sem prompt=none, para que possa consentir.',
  },
  'interaction-required': {
    title: 'É preciso interação',
    summary:
      'A solicitação de autenticação dizia prompt=none, mas precisa que o usuário aja: seu id_token_hint indica um usuário diferente do que entrou, que teria de trocar de conta. Nenhuma página foi mostrada.',
    action: 'Faça o usuário passar de novo pela solicitação de autorização sem prompt=none.',
  },
  'bearer-invalid-token': {
    title: 'Token de acesso inválido',
    summary:
      'O endpoint userinfo não recebeu nenhum token de acesso, ou recebeu um expirado, não assinado por este servidor, emitido por outro emissor ou para outro público (um token criado com outro ISSUER), ou cuja concessão foi revogada; ou um endpoint de registro de cliente (RFC 7591 §3, RFC 7592 §3) não recebeu nenhum token de acesso inicial ou de registro válido.',
    action:
      'Atualize o token de acesso (ou faça o usuário entrar de novo) e tente de novo com o novo. Nos endpoints de registro: peça ao operador um novo token de acesso inicial, ou registre o cliente de novo.',
  },
  'bearer-insufficient-scope': {
    title: 'Escopo insuficiente',
    summary: 'O token de acesso não recebeu o escopo openid, que o endpoint userinfo exige.',
    action: 'Peça o escopo openid na solicitação de autorização.',
  },
  'authorization-pending': {
    title: 'Autorização pendente',
    summary:
      'O código de dispositivo é válido, mas o usuário ainda não digitou o código de usuário nem aprovou ou recusou a solicitação na página /device (RFC 8628 §3.5).',
    action:
      'Continue consultando o endpoint de token com o mesmo device_code, esperando o intervalo (5 segundos, a menos que a resposta de autorização de dispositivo tenha dito outro) entre as solicitações.',
  },
  'slow-down': {
    title: 'Consultas rápidas demais',
    summary:
      'O dispositivo consultou o endpoint de token antes do que o intervalo permite. A autorização continua pendente, e o intervalo deste código de dispositivo agora é 5 segundos maior (RFC 8628 §3.5).',
    action:
      'Some 5 segundos ao intervalo de consulta para esta e todas as próximas solicitações deste código de dispositivo e continue consultando.',
  },
  'expired-token': {
    title: 'Código de dispositivo expirado',
    summary:
      'O código de dispositivo expirou (10 minutos depois de emitido) antes de ser aprovado e resgatado; a sessão de autorização do dispositivo terminou (RFC 8628 §3.5).',
    action:
      'Pare de consultar. Comece de novo com uma nova solicitação de autorização de dispositivo e mostre ao usuário o novo código de usuário.',
  },
  'invalid-request-object-error': {
    title: 'Objeto de solicitação inválido',
    summary:
      'O parâmetro request não é um objeto de solicitação que o servidor aceita (RFC 9101 §7): não é um JWT assinado por uma das chaves registradas do cliente com um algoritmo assimétrico, ou seu iss não é o client_id, seu aud não é o emissor, seu exp falta ou já passou, seu nbf está no futuro, ou ele indica outro cliente.',
    action:
      'Assine o objeto de solicitação com uma chave do jwks ou do jwks_uri do cliente, com iss igual ao client_id, aud igual ao identificador do emissor e exp alguns minutos no futuro, e envie de novo.',
  },
  'token-invalid-dpop-proof': {
    title: 'Prova DPoP inválida',
    summary:
      'A solicitação de token, ou a solicitação de autorização enviada por PAR (RFC 9449 §10.1), trazia um cabeçalho DPoP (RFC 9449 §4) que não é uma única prova válida: não é um JWS compacto com typ dpop+jwt, um algoritmo fora de dpop_signing_alg_values_supported, um jwk privado ou malformado, uma assinatura errada, htm ou htu que não indicam esta solicitação, um iat fora da janela, ou um jti já usado; ou o cliente está registrado com dpop_bound_access_tokens ou com o perfil FAPI 2.0 (profile fapi2) e não enviou prova ao endpoint de token.',
    action:
      'Envie exatamente um cabeçalho DPoP com uma prova nova para esta solicitação (htm POST, htu o endpoint chamado, de token ou de PAR, sem query, um jti novo, a hora atual como iat), assinada com um algoritmo que o servidor anuncia.',
  },
  'token-use-dpop-nonce': {
    title: 'Nonce DPoP obrigatório',
    summary:
      'O servidor exige nas provas DPoP um nonce fornecido pelo servidor (RFC 9449 §8) e a prova não tinha nenhum, ou tinha um que não vale mais. A resposta traz o nonce a usar em seu cabeçalho DPoP-Nonce.',
    action:
      'Crie uma prova nova cuja claim nonce seja o cabeçalho DPoP-Nonce desta resposta e envie a solicitação de novo.',
  },
  'missing-required-field': {
    title: 'Campo obrigatório ausente',
    summary:
      'Um campo obrigatório está ausente do corpo JSON, ou vale null onde seu esquema não permite null. O detail diz exatamente: Missing required field \'<field_name>\' in request body. Cada campo ausente é listado em errors. Null é um valor, e não um campo ausente, só onde o esquema o permite explicitamente: nullable: true no OpenAPI 3.0, um tipo que lista "null" no OpenAPI 3.1.',
    action:
      'Adicione o campo com um valor válido e envie de novo. Valide os corpos com o esquema (GET /v2/openapi.json) antes de enviar. Trocar POST por PUT não evita a validação.',
  },
  'invalid-field-value': {
    title: 'Valor de campo inválido',
    summary:
      'Um campo está presente, mas seu valor não é aceitável: um valor vazio ou mal formatado, um tipo errado, um campo que o esquema recusa (additionalProperties: false), ou um campo somente leitura como id enviado com um valor diferente do próprio registro (ou enviado na criação).',
    action: 'Envie um valor bem formatado para cada campo listado em errors.',
  },
  'malformed-json': {
    title: 'JSON malformado',
    summary:
      'O corpo da solicitação não é JSON válido em UTF-8, aninha arrays e objetos em mais de 64 níveis, ou está vazio onde um corpo é obrigatório.',
    action: 'Envie um documento JSON bem formado.',
  },
  'invalid-parameter': {
    title: 'Parâmetro de consulta inválido',
    summary:
      'Um parâmetro de consulta tem um valor que o endpoint não aceita, como um tamanho de página fora do intervalo ou um cursor que ele não forneceu.',
    action: 'Envie o parâmetro como o detail diz, ou deixe-o de fora.',
  },
  'unsupported-media-type': {
    title: 'Tipo de mídia não suportado',
    summary:
      'O corpo da solicitação tem um Content-Type que este endpoint não aceita, ou um Content-Encoding (como gzip): os corpos são lidos apenas como enviados (essa resposta traz Accept-Encoding: identity).',
    action:
      'Envie Content-Type: application/json (application/merge-patch+json para PATCH), e o corpo sem Content-Encoding.',
  },
  'payload-too-large': {
    title: 'Corpo grande demais',
    summary: 'O corpo da solicitação é maior do que o servidor aceita.',
    action: 'Envie um corpo menor.',
  },
  'invalid-token': {
    title: 'Token de acesso inválido',
    summary:
      "O token de acesso bearer está ausente, malformado, expirado, assinado por uma chave desconhecida ou pertence a uma concessão revogada; ou as chaves deste servidor o assinaram para outro emissor ou público (criado com outro ISSUER), e então o detail diz: The access token was issued by '<iss>', not by this server ('<issuer>'). ou The access token is for the audience '<aud>', not for this server ('<issuer>').",
    action:
      'Atualize o token de acesso; se a atualização for recusada com invalid_grant, execute o fluxo de autorização de novo.',
  },
  'insufficient-scope': {
    title: 'Escopo insuficiente',
    summary:
      "O token de acesso é válido, mas não tem o escopo de que esta operação precisa; o detail diz: This operation needs the scope '<scope>'. (ou '<scope>' or '<scope>'. quando várias alternativas bastam).",
    action: 'Obtenha um token com o escopo indicado no cabeçalho WWW-Authenticate.',
  },
  'insufficient-role': {
    title: 'Papel insuficiente',
    summary:
      "O token de acesso é válido, mas seu titular não tem um papel de que esta operação precisa (RFC 9068 §2.2.3.1 `roles`, como a operação declara em `x-required-roles`); o detail diz: This operation needs the role '<role>'. (ou '<role>' or '<role>'. quando vários bastam). Na API de administração: o token de um usuário é para o público '{issuer}/admin/v1' e seu usuário tem admin, user-manager ou auditor, conforme a operação permite.",
    action:
      'Peça o papel a um operador (gatehouse roles assign) e depois atualize o token de acesso: os papéis mudam no próximo token.',
  },
  'step-up-required': {
    title: 'Entre novamente para esta operação',
    summary:
      'Uma operação perigosa da API de administração (excluir um cliente, usuário, provedor externo, organização, grupo ou papel, um novo segredo de cliente, rotacionar ou aposentar uma chave de assinatura; o documento marca cada uma com x-step-up-max-age) foi chamada com o token de acesso de um usuário cujo login (seu auth_time, RFC 9068 §2.2.1) tem mais de 300 segundos, ou que não diz quando seu usuário entrou. O desafio WWW-Authenticate traz error="insufficient_user_authentication" com max_age="300" (RFC 9470 §3). O token próprio de um cliente de administração (client_credentials) não tem login e não é afetado. Nada foi alterado.',
    action:
      'Envie o usuário de novo pelo endpoint de autorização com max_age=300 e prompt=login (OpenID Connect Core §3.1.2.1) e repita a operação com o novo token de acesso.',
  },
  'invalid-dpop-proof': {
    title: 'Prova DPoP inválida',
    summary:
      'O token de acesso está vinculado a DPoP (RFC 9449) e sua prova está ausente ou foi recusada: o cabeçalho DPoP não é um único JWS compacto com typ dpop+jwt assinado com um algoritmo aceito pela chave pública que carrega, ou seu htm, htu, iat, ath ou jti não corresponde a esta solicitação (uma prova já usada é recusada), ou foi assinado por outra chave que não aquela a que o token está vinculado. O desafio DPoP do WWW-Authenticate lista os algoritmos aceitos.',
    action:
      'Envie Authorization: DPoP <token> com uma prova nova para esta solicitação (htm, htu sem query, um jti novo, o ath do token) assinada pela chave a que o token está vinculado.',
  },
  'use-dpop-nonce': {
    title: 'Nonce DPoP obrigatório',
    summary:
      'Falta à prova DPoP o nonce que este servidor fornece, ou ela traz um que ele não aceita mais (RFC 9449 §9). A resposta traz o nonce atual em seu cabeçalho DPoP-Nonce.',
    action: 'Crie uma prova nova cuja claim nonce seja o cabeçalho DPoP-Nonce desta resposta e tente de novo uma vez.',
  },
  'owner-required': {
    title: 'É preciso um usuário',
    summary:
      'Os registros da coleção pertencem aos usuários que os criaram (x-gatehouse-ownership: owner no documento OpenAPI), e o token de acesso não age por nenhum usuário: foi emitido para o próprio cliente (a concessão client_credentials). O x-gatehouse-client-access do documento diz o que um token assim pode fazer ali: none (o padrão para registros com dono), read ou read-write.',
    action:
      'Chame a API com um token de acesso concedido por um usuário (fluxo de código de autorização ou de dispositivo); um serviço que precisa alcançar os registros de todos os usuários pede ao operador que declare x-gatehouse-client-access para a coleção.',
  },
  'method-not-allowed': {
    title: 'Método não permitido',
    summary: 'O recurso existe, mas não suporta este método HTTP.',
    action: 'Use um dos métodos listados no cabeçalho Allow.',
  },
  'precondition-failed': {
    title: 'Pré-condição falhou',
    summary: 'If-Match indica uma versão do registro que não é mais a atual.',
    action: 'Busque o registro de novo, reaplique sua alteração e envie-a com o novo ETag.',
  },
  'invalid-operator-input': {
    title: 'Entrada do operador inválida',
    summary:
      'Uma solicitação administrativa indica algo que não existe, que já existe ou que viola uma regra do servidor (por exemplo, um escopo mais amplo do que o cliente pode usar). O detail diz qual.',
    action: 'Corrija a solicitação como o detail diz e envie de novo; a mesma solicitação será recusada de novo.',
  },
  conflict: {
    title: 'Já existe',
    summary:
      'Uma solicitação administrativa cria algo cujo identificador já está em uso: um ID de cliente ou um nome de usuário que já existe. Nada foi gravado.',
    action:
      'Escolha outro identificador, ou altere o existente (PUT) em vez de criá-lo; a mesma solicitação será recusada de novo.',
  },
  'invalid-email-address': {
    title: 'Este endereço de e-mail não pode receber mensagens',
    summary:
      'O endereço de e-mail não é um único endereço no formato nome@domínio: está vazio, tem mais de 254 caracteres (RFC 5321 §4.5.3.1.3) ou uma parte de nome com mais de 64, contém um nome de exibição, um grupo, vários endereços, aspas, espaços, uma quebra de linha ou outro caractere de controle (uma quebra de linha poderia adicionar um cabeçalho à mensagem), ou seu domínio não é um nome de host válido. Nada foi enfileirado e nenhum e-mail foi enviado.',
    action: 'Corrija o endereço (por exemplo alice@example.com) e envie de novo.',
  },
  'invalid-email-message': {
    title: 'Este e-mail não pôde ser enfileirado',
    summary:
      'Uma mensagem entregue à caixa de saída viola uma regra do e-mail: sua linha de assunto contém uma quebra de linha ou outro caractere de controle (que poderia adicionar um cabeçalho à mensagem) ou tem mais de 998 caracteres (RFC 5322 §2.1.1), um corpo está vazio, ou seu tipo ou idioma está malformado. Nada foi enfileirado e nenhum e-mail foi enviado; o detail diz qual parte.',
    action:
      'É uma falha do servidor ou do texto que ele recebeu (por exemplo, um nome com quebra de linha mostrado no assunto); corrija esse texto e tente de novo, ou avise o operador.',
  },
  'email-verification-link-invalid': {
    title: 'Este link de verificação não funciona mais',
    summary:
      'O link para verificar um endereço de e-mail já foi usado, tem mais de 24 horas, foi encerrado por um e-mail de verificação mais recente, a conta passou a ter outro endereço, ou não é um link enviado por este servidor. Cada link funciona uma vez. Nada foi alterado.',
    action:
      'Entre e abra a página da sua conta: ela diz se o endereço está verificado e envia um novo e-mail se não estiver.',
  },
  'verification-code-invalid': {
    title: 'Esse código de verificação não funcionou',
    summary:
      'O código de seis dígitos não é o do e-mail de verificação mais recente, já foi usado ou tem mais de 24 horas. Depois de 10 códigos errados em uma hora para uma conta, nenhum código é verificado por um tempo (429, com Retry-After). Nada foi alterado.',
    action:
      'Digite o código do e-mail mais recente, ou abra o link dele; ou peça um novo e-mail na página da sua conta.',
  },
  'email-address-missing': {
    title: 'Esta conta não tem um endereço de e-mail para verificar',
    summary:
      'O servidor exige um endereço de e-mail verificado antes de concluir um login (EMAIL_VERIFICATION=required), e esta conta não tem nenhum endereço, então nenhum código pode ser enviado. A senha estava correta; o login para aqui e nada foi alterado.',
    action:
      'Peça a um administrador que adicione um endereço de e-mail à conta (gatehouse users update NOME --email ENDEREÇO, ou a API de administração) e entre novamente.',
  },
  'upstream-unavailable': {
    title: 'Seu provedor de identidade não está respondendo',
    summary:
      'A entrada passa por um provedor de identidade em que o Gatehouse confia (federação), e ele não respondeu a tempo, respondeu com um erro de servidor, ou seu documento de descoberta não pôde ser lido. Ninguém entrou e nada foi alterado.',
    action:
      'Aguarde um momento e escolha “Tentar novamente”. Se continuar falhando, o provedor de identidade está fora do ar ou inacessível a partir do Gatehouse: avise o operador, ou entre de outra forma.',
  },
  'upstream-misconfigured': {
    title: 'A entrada com este provedor de identidade não está configurada corretamente',
    summary:
      'O Gatehouse se recusou a enviar uma solicitação ao provedor de identidade, então o provedor nunca foi consultado: sua configuração viola uma regra do próprio Gatehouse (o detail a indica), como http simples para um host que não é loopback. Ninguém entrou. Não se sabe de nenhuma falha do provedor.',
    action:
      'Entre de outra forma e informe o detail ao operador. Operador: corrija a entrada do provedor (docs/federation.md, Configuring upstreams) e aplique-a de novo.',
  },
  'upstream-access-denied': {
    title: 'Seu provedor de identidade recusou a entrada',
    summary:
      'O provedor de identidade respondeu access_denied (RFC 6749 §4.1.2.1): você cancelou, ou ele não permite que sua conta use este aplicativo. Ninguém entrou.',
    action: 'Comece a entrar de novo pelo aplicativo, ou peça acesso ao administrador do seu provedor de identidade.',
  },
  'upstream-login-required': {
    title: 'Seu provedor de identidade precisa que você entre',
    summary:
      'O provedor de identidade respondeu login_required, interaction_required ou consent_required (OIDC Core §3.1.2.6): não conseguiu fazer você entrar sem lhe mostrar uma página. Ninguém entrou.',
    action: 'Comece a entrar de novo pelo aplicativo; o provedor de identidade mostrará sua página de entrada.',
  },
  'upstream-sign-in-failed': {
    title: 'Seu provedor de identidade não conseguiu fazer você entrar',
    summary:
      'O provedor de identidade devolveu o navegador com um erro diferente de access_denied ou login_required (RFC 6749 §4.1.2.1; o detail o indica), ou foi aberto um link com um erro assim. Ninguém entrou.',
    action:
      'Comece a entrar de novo pelo aplicativo. Se continuar acontecendo, informe ao operador o erro do detail: o provedor pode estar recusando o que o Gatehouse lhe pede (um escopo, o cliente).',
  },
  'upstream-code-refused': {
    title: 'Esta entrada não pôde ser concluída',
    summary:
      'O provedor de identidade recusou o código que este navegador trouxe de volta (invalid_grant ou invalid_request, RFC 6749 §5.2): ele já foi usado, expirou ou foi emitido para outra entrada, por exemplo um link aberto em outro navegador. Foi recusado e registrado; ninguém entrou.',
    action:
      'Comece a entrar de novo pelo aplicativo, neste navegador, e termine aqui mesmo; um link de entrada não pode ser aberto duas vezes nem em outro navegador.',
  },
  'upstream-error': {
    title: 'Seu provedor de identidade respondeu com um erro',
    summary:
      'O provedor de identidade respondeu ao próprio Gatehouse algo que ele não pode usar: um erro OAuth em seu endpoint de token ou de userinfo que não é sobre o código (invalid_client, unauthorized_client: o detail o indica), um documento de descoberta que indica outro emissor, ou uma resposta fora do protocolo. Ninguém entrou.',
    action:
      'Entre de outra forma e informe o detail ao operador: o registro do Gatehouse no provedor, ou o próprio provedor, precisa de correção.',
  },
  'upstream-token-invalid': {
    title: 'A resposta do provedor de identidade foi recusada',
    summary:
      'O token de ID ou o retorno do provedor de identidade não passou na validação (OIDC Core §3.1.3.7, RFC 9207): sem assinatura (alg none) ou mal assinado, emitido por outro emissor, para outro público, expirado, com um nonce errado, ou um retorno que indica outro emissor. Foi recusado e registrado na trilha de auditoria; ninguém entrou.',
    action:
      'Comece a entrar de novo pelo aplicativo. Se continuar acontecendo, avise o operador: a resposta pode ter sido adulterada.',
  },
  'federation-state-invalid': {
    title: 'Esta entrada expirou ou já foi usada',
    summary:
      'A resposta do provedor de identidade trazia um state que o Gatehouse não enviou a este navegador, enviou há mais de dez minutos, ou que já foi usado (RFC 6749 §10.12, RFC 9700 §4.7). Pode ser um link forjado ou repetido. Foi recusado e registrado; ninguém entrou.',
    action: 'Volte ao aplicativo e comece a entrar de novo, no mesmo navegador.',
  },
  'federation-no-provider': {
    title: 'Nenhum provedor de identidade para esse endereço',
    summary:
      'O endereço de e-mail digitado pertence a um domínio que nenhum provedor de identidade deste servidor atende, ou o provedor escolhido não está mais configurado.',
    action: 'Verifique o endereço, ou entre com seu nome de usuário e senha.',
  },
  'federation-no-account': {
    title: 'Nenhuma conta para esta entrada',
    summary:
      'O provedor de identidade fez você entrar, mas nenhuma conta local está vinculada a essa identidade e o operador não permite que este provedor crie contas na primeira entrada.',
    action:
      'Peça ao operador que crie sua conta, ou entre com seu nome de usuário e senha e vincule o provedor a partir dali.',
  },
  'federation-unlink-refused': {
    title: 'Esta é sua única forma de entrar',
    summary:
      'Desvincular este provedor de identidade deixaria a conta sem nenhuma forma de entrar: ela não tem senha nem outro provedor vinculado. Nada foi alterado.',
    action: 'Peça ao operador que defina primeiro uma senha para sua conta e depois desvincule o provedor.',
  },
  'organization-domain-public': {
    title: 'Domínio de e-mail público',
    summary:
      'Uma solicitação administrativa dá a uma organização o domínio de e-mail de um provedor público (gmail.com, outlook.com, yahoo.com e similares) ou de endereços descartáveis. Qualquer pessoa pode ter um endereço ali, então esse domínio não diz nada sobre quem trabalha para a organização: tornaria desconhecidos membros ao entrar. Nada foi gravado.',
    action:
      'Dê à organização um domínio que ela possua (o domínio da empresa). Membros com endereços em um provedor público são adicionados um a um (gatehouse orgs members add).',
  },
  'internal-error': {
    title: 'Erro interno do servidor',
    summary: 'O servidor encontrou uma condição inesperada; nada foi gravado.',
    action: 'Tente de novo com espera exponencial; informe o problema ao operador se ele persistir.',
  },
  'service-unavailable': {
    title: 'Serviço indisponível',
    summary: 'O servidor está sobrecarregado ou seu armazenamento está ocupado; nada foi gravado.',
    action: 'Tente de novo depois do tempo de Retry-After, com espera exponencial.',
  },
  'not-ready': {
    title: 'Não está pronto',
    summary:
      'A sonda de prontidão (GET /health/ready) constatou que o servidor não consegue atender: seu armazenamento não respondeu dentro do prazo da sonda, faltam ao banco de dados migrações de que esta versão precisa, ou nenhuma chave de assinatura pôde ser carregada. O detail diz qual. O processo em si está vivo (GET /health/live).',
    action:
      'Balanceadores de carga: enviem as solicitações a outra instância até que esta volte a responder 200. Operadores: iniciem ou tornem acessível o banco de dados, executem gatehouse migrate ou gatehouse keys rotate --now, conforme o detail diz.',
  },
  'client-metadata-document-unavailable': {
    title: 'Não foi possível obter a descrição deste aplicativo',
    summary:
      'O client_id é a URL https de um documento de metadados de ID de cliente (draft-ietf-oauth-client-id-metadata-document), e o servidor não conseguiu obtê-lo com segurança: seu host resolve para um endereço privado, de loopback, link-local ou de outra forma não público, ou a URL respondeu com um redirecionamento (nunca seguido), um status de erro, um documento acima do limite de tamanho, ou nada dentro do limite de tempo. O detail diz qual. Ninguém entrou e nada foi concedido.',
    action:
      'Volte ao aplicativo e avise seu desenvolvedor. Ele deve servir o documento exatamente na URL client_id, por https a partir de um endereço público, com status 200, sem redirecionamento e pequeno (alguns kilobytes). Operadores de uma instalação privada podem permitir endereços com CLIENT_ID_METADATA_ALLOW_ADDRESSES (docs/agents.md).',
  },
  'client-metadata-document-invalid': {
    title: 'A descrição deste aplicativo não é válida',
    summary:
      'O documento de metadados de ID de cliente foi obtido, mas não pode descrever este cliente: não é um objeto JSON, seu client_id não é exatamente a URL de onde foi obtido, pede um segredo compartilhado (client_secret_basic, client_secret_post ou um campo client_secret), private_key_jwt sem suas chaves, concessões diferentes de authorization_code, da concessão de código de dispositivo e de refresh_token (e pelo menos uma das duas primeiras), ou URIs de redirecionamento que não poderiam ser registradas (https, ou http em um IP literal de loopback). O detail diz qual.',
    action:
      'Volte ao aplicativo e avise seu desenvolvedor: o documento deve seguir o draft-ietf-oauth-client-id-metadata-document §4 e as regras de URI de redirecionamento dos clientes registrados (docs/agents.md).',
  },
  'client-metadata-document-not-allowed': {
    title: 'Este aplicativo não é permitido aqui',
    summary:
      'O client_id é a URL de um documento de metadados de ID de cliente em um host que o operador deste servidor não aceita (CLIENT_ID_METADATA_DOCUMENTS=allowlist sem o host em CLIENT_ID_METADATA_ALLOW_HOSTS, ou o host em CLIENT_ID_METADATA_DENY_HOSTS), ou não é uma URL que tal documento possa ter (https, um caminho, sem fragmento, credenciais ou segmentos de ponto). Nada foi obtido.',
    action:
      'Peça ao operador do servidor que permita o host do aplicativo, ou use um cliente registrado no servidor (gatehouse clients add, ou /register).',
  },
  'invalid-request-uri': {
    title: 'Este link de entrada expirou ou já foi usado',
    summary:
      'A solicitação de autorização indica uma request_uri desconhecida, expirada (uma solicitação enviada por PAR dura cerca de um minuto), já usada uma vez ou enviada por outro cliente que não o indicado em seu client_id, ou uma request_uri de um tipo que este servidor não busca (RFC 9126 §4, RFC 9101 §6.2). Sem a solicitação enviada por PAR, o servidor não tem como saber para onde seria seguro mandar você de volta.',
    action:
      'Volte ao aplicativo e comece de novo. O desenvolvedor deve enviar a solicitação de autorização por PAR (POST /par) logo antes de mandar o navegador para /authorize com o client_id e a request_uri recebida, uma única vez.',
  },
  'invalid-request-object': {
    title: 'Este link de entrada não está assinado corretamente',
    summary:
      'A solicitação de autorização traz um objeto de solicitação (o parâmetro request, RFC 9101) que não é um JWT assinado por uma das chaves registradas do cliente com um algoritmo aceito, ou cujo iss não é o client_id, cujo aud não é o emissor deste servidor, que expirou ou ainda não é válido, ou cujo client_id difere do da solicitação (RFC 9101 §6.3).',
    action:
      'Volte ao aplicativo e avise seu desenvolvedor: o objeto de solicitação deve ser assinado com uma chave do jwks ou do jwks_uri do cliente (ES256, PS256, RS256, EdDSA e afins), com iss igual ao client_id, aud igual ao emissor e um exp curto.',
  },
  'invalid-logout-request': {
    title: 'Este link de saída não é válido',
    summary:
      'A solicitação de saída indica uma post_logout_redirect_uri que não está registrada para o aplicativo, não indica nenhum de seus aplicativos, ou traz um id_token_hint que este servidor não emitiu. O servidor não tem como saber para onde seria seguro mandar você de volta, então para aqui em vez de redirecionar (OpenID Connect RP-Initiated Logout 1.0 §3).',
    action:
      'Você pode sair na página simples de saída. O desenvolvedor deve enviar um id_token_hint ou um client_id, e exatamente uma das URIs de redirecionamento pós-saída registradas para o cliente (gatehouse clients add --post-logout-redirect-uri), caractere por caractere.',
  },
  'passkey-enrolment-failed': {
    title: 'A chave de acesso não foi adicionada',
    summary:
      'Não foi possível verificar a nova chave de acesso: a página da conta tinha expirado ou já tinha sido usada (cada página pergunta uma vez, por 5 minutos), o navegador informou outro site, o autenticador não fez a verificação do usuário, ou a chave de acesso já está registrada. Nada foi armazenado.',
    action: 'Recarregue a página da conta e adicione a chave de acesso de novo.',
  },
  'malformed-request': {
    title: 'Solicitação malformada',
    summary:
      'A solicitação não é HTTP/1.1 válido: um método desconhecido, uma solicitação CONNECT (o servidor não é um proxy), uma linha de solicitação sem HTTP/1.1 (HTTP/0.9), uma linha de solicitação ou um campo de cabeçalho malformado, um corpo menor que seu Content-Length, ou um caminho de URL que não é UTF-8 válido com codificação por porcentagem.',
    action:
      'Envie uma solicitação HTTP/1.1 bem formada com o caminho codificado por porcentagem em UTF-8; enviar os mesmos bytes de novo falha de novo.',
  },
  'request-header-too-large': {
    title: 'Campos de cabeçalho da solicitação grandes demais',
    summary:
      'A linha de solicitação e os campos de cabeçalho juntos são maiores do que o servidor aceita (16 KiB, a menos que o operador tenha definido MAX_HEADER_BYTES), por exemplo uma URL de autorização com um state muito longo.',
    action: 'Encurte a URL e os campos de cabeçalho; envie valores grandes no corpo da solicitação.',
  },
  'request-timeout': {
    title: 'Tempo da solicitação esgotado',
    summary:
      'A solicitação não chegou a tempo: seus cabeçalhos em 10 segundos, ou a solicitação inteira em 30 segundos (a menos que o operador tenha definido HEADERS_TIMEOUT_MS ou REQUEST_TIMEOUT_MS). Nada foi feito.',
    action: 'Envie a solicitação de novo, sem pausar no meio dela.',
  },
  'organization-sign-in-method': {
    title: 'Sua organização pede outra forma de entrar',
    summary:
      'Você entrou de uma forma que a organização pedida pelo aplicativo não permite (seus métodos de entrada: uma senha, uma chave de acesso ou o provedor de identidade da organização). Nada foi concedido.',
    action:
      'Saia e entre novamente de uma das formas indicadas nos detalhes (por exemplo com sua chave de acesso ou pelo provedor de identidade da sua empresa), ou fale com um administrador da organização.',
  },
  'invitation-link-invalid': {
    title: 'Este convite não funciona mais',
    summary:
      'O link do convite já foi usado, é mais antigo do que o operador permite (7 dias, salvo indicação em contrário), foi revogado, é para um endereço que uma conta passou a usar ou para uma conta que mudou de endereço ou foi desativada, é de outra conta ou não foi enviado por este servidor. Cada convite funciona uma vez. Nada foi alterado.',
    action: 'Peça um novo convite a quem convidou você. Se você já o aceitou, entre normalmente.',
  },
  'sign-up-needs-invitation': {
    title: 'As contas são criadas somente por convite',
    summary:
      'Este servidor cria contas somente para pessoas convidadas pelo operador (SIGN_UP=invite): o formulário de cadastro foi aberto sem convite. Nenhuma conta foi criada.',
    action:
      'Abra o e-mail de convite que você recebeu e siga o link, ou peça um convite ao operador. Se você já tem uma conta, entre.',
  },
  'sign-up-address-not-accepted': {
    title: 'Este endereço de e-mail não pode ser usado no cadastro',
    summary:
      'O endereço de e-mail do cadastro não é um endereço (um @, um domínio com ponto, sem espaços, aspas, sinais de menor e maior, vírgulas ou caracteres de controle, no máximo 254 caracteres, RFC 5321 §4.5.3.1.3), ou o domínio não está entre os que o operador permite (SIGN_UP_DOMAINS). Nenhuma conta foi criada e nenhum e-mail foi enviado.',
    action:
      'Digite seu endereço como você recebe e-mails nele; se a página indicar os domínios permitidos, use um endereço de um deles.',
  },
  'sign-up-name-not-accepted': {
    title: 'Este nome não pode ser usado',
    summary:
      'O nome do cadastro está vazio, tem mais de 128 caracteres ou contém uma quebra de linha ou outro caractere de controle. Nenhuma conta foi criada e nenhum e-mail foi enviado.',
    action: 'Digite em uma única linha o nome que os aplicativos devem mostrar.',
  },
  'too-many-sign-ups': {
    title: 'Cadastros demais',
    summary:
      'Contas foram pedidas vezes demais: deste endereço de rede (10 por hora por padrão) ou com endereços deste domínio de e-mail (50 por hora). Nenhuma conta foi criada e nenhum e-mail foi enviado para esta solicitação. Os operadores definem os limites com RATE_LIMIT_SIGN_UP_ADDRESS e RATE_LIMIT_SIGN_UP_DOMAIN.',
    action: 'Aguarde o tempo indicado no cabeçalho Retry-After (mostrado na página) e cadastre-se novamente.',
  },
  'account-deletion-not-confirmed': {
    title: 'Digite seu nome de usuário para excluir a conta',
    summary:
      'Excluir uma conta pede o nome de usuário, digitado como confirmação, e uma entrada feita nos últimos 10 minutos: o que foi digitado não é o nome de usuário da conta conectada. Nada foi excluído.',
    action:
      'Digite seu nome de usuário exatamente como a página o mostra e exclua novamente; ou saia da página para manter a conta.',
  },
  'email-change-address-not-accepted': {
    title: 'Este endereço de e-mail não pode ser usado',
    summary:
      'O novo endereço digitado na página da conta não é um endereço (um @, um domínio com ponto, sem espaços, aspas, sinais de menor e maior, vírgulas, quebras de linha ou outros caracteres de controle, no máximo 254 caracteres, RFC 5321 §4.5.3.1.3). O endereço da conta não mudou e nenhum e-mail foi enviado.',
    action: 'Volte à página da conta e digite o novo endereço exatamente como você recebe e-mails nele.',
  },
};
