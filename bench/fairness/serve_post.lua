-- wrk script for `assay fair serve`: POST /predict with the sentences below in turn
-- (person nouns in most, so most requests are smoothed over k > 0 perturbations).
local texts = {
  "the actor gives a wonderful performance",
  "a dull film whose director has nothing to say",
  "the waiter and the actress steal every scene",
  "it is a charming , funny film",
  "my uncle would have walked out after ten minutes",
  "the teacher in this story is the best thing about it",
}
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = i % #texts + 1
  return wrk.format(nil, "/predict", nil, '{"text": "' .. texts[i] .. '"}')
end
