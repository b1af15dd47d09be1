/** Original prose for the local model: software, computing and the web. */
export const answersTechnology = `
An API is a set of rules that lets one program ask another program to do something. A weather app, for example, sends a request to a weather service and receives the forecast as structured data, often in JSON. The app does not need to know how the service works inside; it only needs to follow the rules of the API.
---
JSON is a text format for structured data. It has objects with keys and values in curly braces, arrays in square brackets, strings in double quotes, numbers, and the values true, false and null. Almost every programming language can read and write it, which makes it a popular choice for web APIs.
---
To start learning to program, choose one language and one small project. Python and JavaScript are friendly first choices. Build something you actually want, such as a script that renames your photos or a page that shows your favourite recipes. You will learn more from finishing a small project than from reading about large ones.
---
A function is a named block of code that does one job. It takes inputs, called parameters, and usually returns a result. Good functions are short, have clear names and do not surprise the reader. If a function needs a long comment to explain what it does, it may be doing too much.
---
Version control keeps the history of a project. With Git, you save snapshots called commits, each with a short message that says why the change was made. You can compare versions, go back to an earlier state, and work on separate branches that are merged later.
---
A database stores data so that it can be searched and updated reliably. Relational databases keep data in tables with rows and columns and use SQL to query them. An index on a column makes lookups by that column fast, at the cost of some extra space and slightly slower writes.
---
Streaming means sending a response in pieces as soon as each piece is ready, instead of waiting for the whole answer. A chat interface can then show the first words after a fraction of a second. Server sent events are a simple way to stream text from a server to a browser over one ordinary HTTP connection.
---
Tokens are the small pieces of text that a language model reads and writes. A token can be a whole word, part of a word, a space or a punctuation mark. Counting tokens matters because models have limits on how many they can read at once, and because usage is often measured in tokens.
---
A cache keeps a copy of data that is expensive to produce so it can be reused quickly. A browser caches images, a server caches the results of slow queries, and a language model service can cache a long document so later requests do not have to send it again. Every cache needs a rule for when its copy expires.
---
To debug a program, first make the problem happen reliably. Then reduce it: remove parts of the input or the code until you find the smallest case that still fails. Read the error message carefully, check your assumptions one by one, and change only one thing at a time.
---
Unit tests check small pieces of code in isolation. A good test describes one behaviour, sets up its input, runs the code and checks the result. Tests that run quickly and fail for one clear reason make it safe to change the code later.
---
HTTP is the protocol of the web. A client sends a request with a method such as GET or POST, a path and some headers, and the server answers with a status code, headers and a body. Status codes in the two hundreds mean success, four hundreds mean a problem with the request, and five hundreds mean a problem on the server.
---
A password manager creates and remembers a long, unique password for every site, so you only need to remember one strong master password. Turn on two factor authentication for important accounts as well. Even if a password leaks, the second factor keeps the account closed.
---
To speed up a slow web page, measure first. Large images, too many scripts and slow server responses are common causes. Compress and resize images, load scripts only where they are needed, and cache responses that do not change often.
---
A regular expression is a small pattern language for matching text. For example, a pattern can find every date in a document or check that a postcode has the right shape. Regular expressions are powerful but hard to read, so keep them short and test them with several examples.
---
Recursion is when a function calls itself on a smaller part of the problem. To compute the size of a folder, a program can add the sizes of its files to the sizes of its subfolders, computed by the same function. Every recursive function needs a base case that stops the calls.
---
An operating system manages the hardware of a computer and shares it between programs. It decides which program runs on the processor, gives each program its own memory, and provides files, networking and devices through a common interface.
---
Machine learning is a way of building programs that learn patterns from examples instead of following rules written by hand. A model is trained on data, its mistakes are measured, and its parameters are adjusted to make fewer mistakes. The trained model can then make predictions about new examples.
---
A language model predicts the next token from the tokens before it. Small statistical models count how often short sequences of tokens appear in a body of text. Large neural models learn much richer patterns, but the basic task is the same: given the text so far, what comes next?
---
Temperature controls how adventurous a language model is when it picks the next token. At temperature zero it always takes the most likely token, so the same prompt gives the same answer. Higher temperatures give less likely tokens a better chance, which makes the text more varied and sometimes less coherent.
---
Top K and top P limit which tokens a model may choose from. Top K keeps only the K most likely tokens. Top P keeps the smallest group of likely tokens whose probabilities add up to P. Both remove the long tail of unlikely tokens, and both work together with the temperature.
---
A seed fixes the sequence of random numbers a program uses. With the same seed, the same settings and the same input, a sampling process makes the same choices and produces the same output. That makes experiments repeatable and tests reliable.
---
Spreadsheets are good at small tables of numbers. Keep one kind of data per sheet, put one record in each row, and give every column a clear header. Avoid merged cells in data tables, because they make sorting and filtering difficult.
---
Backups protect you from lost devices, broken disks and mistakes. A common rule is to keep three copies of important files, on two different kinds of storage, with one copy in another place. Test your backups from time to time by restoring a file.
---
Code review is a conversation about a change before it is merged. The reviewer looks for bugs, unclear names and missing tests, and the author explains choices that are not obvious. Short changes get better reviews, because the reviewer can keep the whole change in mind.
---
A container packages an application together with everything it needs to run, such as libraries and settings. The same container image runs the same way on a laptop and on a server. This removes many problems that come from differences between machines.
---
Accessibility means that people with different abilities can use a website or an app. Use real buttons and links, give images a text alternative, keep enough contrast between text and background, and make sure everything works with a keyboard alone.
---
A queue lets one part of a system hand work to another part without waiting. The producer adds messages to the queue, and one or more consumers take them off and process them. If the consumers fall behind, the queue grows, which is a useful signal to add more workers.
`;
