import type { Tone } from '../../src/api/ai.js'

/**
 * The builtin helper's frames: five per tone (one per variant), `{}` standing for the prompt's
 * message. The helper translates only these frames, never the prompt, so every frame puts the
 * message where a sentence starts and it reads well whatever language the prompt is in.
 */
export type Phrasebook = Record<Tone, readonly [string, string, string, string, string]>

const en: Phrasebook = {
  neutral: ['{}.', 'Update: {}.', 'In short: {}.', '{}. More details soon.', 'News: {}.'],
  friendly: [
    'Hi everyone! {}. 😊',
    'Good news, friends: {}!',
    'We wanted you to hear it from us first: {}.',
    '{}. We hope you love it as much as we do!',
    'A quick hello with some news: {}. 👋',
  ],
  professional: [
    'We are pleased to announce: {}.',
    'Announcement: {}.',
    '{}. Further details are available on request.',
    'Today we are sharing an update: {}.',
    '{}. We welcome your questions and feedback.',
  ],
  witty: [
    'Plot twist: {}.',
    '{}. You heard it here first.',
    'Breaking news (the good kind): {}.',
    'Hold on to your coffee: {}.',
    "Nobody asked, but we're telling you anyway: {}.",
  ],
  enthusiastic: ['Big news! {}! 🎉', "We can't keep it in any longer: {}!", '{}! This is a big one! 🚀', 'Exciting times: {}!', "It's happening! {}! 🙌"],
}

const fr: Phrasebook = {
  neutral: ['{}.', 'À noter : {}.', 'En bref : {}.', '{}. Plus de détails bientôt.', 'Actualité : {}.'],
  friendly: [
    'Bonjour à tous ! {}. 😊',
    'Bonne nouvelle, les amis : {} !',
    "Nous voulions que vous l'appreniez de nous en premier : {}.",
    '{}. Nous espérons que vous allez adorer !',
    'Un petit coucou avec une nouvelle : {}. 👋',
  ],
  professional: [
    "Nous avons le plaisir d'annoncer : {}.",
    'Annonce : {}.',
    "{}. Plus d'informations sur demande.",
    "Aujourd'hui, nous partageons une nouvelle : {}.",
    '{}. Vos questions et retours sont les bienvenus.',
  ],
  witty: [
    'Rebondissement : {}.',
    "{}. Vous l'avez appris ici en premier.",
    'Flash info (la bonne sorte) : {}.',
    'Accrochez-vous à votre café : {}.',
    "Personne n'a demandé, mais on vous le dit quand même : {}.",
  ],
  enthusiastic: [
    'Grande nouvelle ! {} ! 🎉',
    'Impossible de garder le secret plus longtemps : {} !',
    "{} ! C'est du lourd ! 🚀",
    'Quelle période excitante : {} !',
    'Ça y est ! {} ! 🙌',
  ],
}

const es: Phrasebook = {
  neutral: ['{}.', 'Novedad: {}.', 'En resumen: {}.', '{}. Pronto, más detalles.', 'Noticia: {}.'],
  friendly: [
    '¡Hola a todos! {}. 😊',
    'Buenas noticias, amigos: {}.',
    'Queríamos que lo supierais por nosotros: {}.',
    '{}. ¡Esperamos que os encante tanto como a nosotros!',
    'Un saludo rápido con novedades: {}. 👋',
  ],
  professional: [
    'Nos complace anunciar: {}.',
    'Anuncio: {}.',
    '{}. Más información disponible a petición.',
    'Hoy compartimos una novedad: {}.',
    '{}. Agradecemos sus preguntas y comentarios.',
  ],
  witty: [
    'Giro inesperado: {}.',
    '{}. Lo leíste aquí primero.',
    'Última hora (de la buena): {}.',
    'Agárrate al café: {}.',
    'Nadie lo preguntó, pero te lo contamos igual: {}.',
  ],
  enthusiastic: ['¡Gran noticia! {}. 🎉', 'No podemos guardarlo más: {}.', '{}. ¡Esto es grande! 🚀', 'Tiempos emocionantes: {}.', '¡Ya está aquí! {}. 🙌'],
}

const de: Phrasebook = {
  neutral: ['{}.', 'Neuigkeit: {}.', 'Kurz gesagt: {}.', '{}. Mehr Details folgen.', 'Aktuell: {}.'],
  friendly: [
    'Hallo zusammen! {}. 😊',
    'Gute Nachrichten, ihr Lieben: {}!',
    'Ihr sollt es zuerst von uns hören: {}.',
    '{}. Wir hoffen, es gefällt euch genauso gut wie uns!',
    'Ein kurzes Hallo mit Neuigkeiten: {}. 👋',
  ],
  professional: [
    'Wir freuen uns, mitteilen zu können: {}.',
    'Ankündigung: {}.',
    '{}. Weitere Informationen erhalten Sie auf Anfrage.',
    'Heute teilen wir eine Neuigkeit: {}.',
    '{}. Wir freuen uns auf Ihre Fragen und Ihr Feedback.',
  ],
  witty: [
    'Überraschende Wendung: {}.',
    '{}. Ihr habt es zuerst hier gelesen.',
    'Eilmeldung (die gute Sorte): {}.',
    'Haltet euren Kaffee fest: {}.',
    'Keiner hat gefragt, aber wir erzählen es trotzdem: {}.',
  ],
  enthusiastic: [
    'Große Neuigkeiten! {}! 🎉',
    'Wir können es nicht länger für uns behalten: {}!',
    '{}! Das ist etwas Großes! 🚀',
    'Aufregende Zeiten: {}!',
    'Es ist so weit! {}! 🙌',
  ],
}

/** Phrasebooks by primary language subtag; English is the fallback. */
export const PHRASEBOOKS: Record<string, Phrasebook> = { en, fr, es, de }

/**
 * Words too common to be a post's keywords (and so its hashtags), in the phrasebooks'
 * languages. Words under four letters are skipped anyway.
 */
export const STOPWORDS = new Set(
  `about above after again against also because been before being below between both could
  does doing down during each every from further have having here into itself just more most
  much must only other over same should some such than that their theirs them then there these
  they this those through under until very what when where which while will with would your
  yours ours please write draft create post posts tweet announce announcing tell people everyone
  today tomorrow week next make news update launch launching launched available coming soon join
  check visit learn find read
  avec dans pour sont cette nous vous leur leurs mais plus tout tous être avoir fait faire comme
  para este esta estos estas pero como todo todos sobre entre desde hasta nuestro nuestra
  und oder aber auch eine einen einem einer nicht noch nach über unter sind wird haben werden`.split(/\s+/),
)
