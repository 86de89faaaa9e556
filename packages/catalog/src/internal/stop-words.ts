// English stop words, dropped from indexed text and queries alike. Besides function words the list holds
// conversational filler that models and people put around a request ("could you please help me ...").

/** Lower-case words that carry no meaning for tool retrieval. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being
  below between both but by can cannot could couldn did do does doing don down during each either etc few for
  from further had has have having he her here hers herself him himself his how however i if
  in into is isn it it's its itself just kindly let let's like may me might more most must my myself no nor not
  now of off on once only or other ought our ours ourselves out over own please same shall she should so some
  such than that that's the their theirs them themselves then there these they this those through to too under
  until up upon us very via want wanted wants was we were what when where whether which while who whom why will
  with within without would yes yet you your yours yourself yourselves need needs needed help thanks thank
  hello hi hey im ive youre dont doesnt cant wont e g eg ie`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);
